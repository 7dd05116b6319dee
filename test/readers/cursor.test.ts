/**
 * Cursor on files Cursor itself wrote, committed as test data by git-ai (test/fixtures/editors/cursor/git-ai,
 * SOURCE.md): an agent transcript (`agent-transcripts/*.jsonl`) and the editor's `state.vscdb`. What the files hold
 * is counted here from the raw JSON lines and with plain SQL, not with cairn's readers; cairn's reading must give
 * the same sessions, prompts, tool calls and errors, with no problem, and find both in a fresh HOME by itself.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { defaultRoots, isTranscriptFile, rootsWithoutOverrides } from "../../src/readers/roots.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { cairn } from "../helpers/cli.ts";
import { byTool, parseFile, REPO } from "../helpers/transcripts.ts";

const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;

const HOME = join(REPO, "test", "fixtures", "editors", "cursor", "git-ai", "home");
const PROJECT = join(HOME, ".cursor", "projects", "Users-aidancunniffe-Desktop-testing-gitflows-git-ai");
const TRANSCRIPT = join(PROJECT, "agent-transcripts", "cursor-session-simple.jsonl");
const STATE_DB = join(HOME, ".config", "Cursor", "User", "globalStorage", "state.vscdb");

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

interface Truth {
  sessions: string[];
  prompts: string[];
  toolCalls: Record<string, number>;
  errors: number;
}

const tally = (names: string[]) => {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = (out[n] ?? 0) + 1;
  return out;
};

/** The transcript as its lines say: prompts inside `<user_query>`, `tool_use` blocks, turns that ended in an error. */
function transcriptTruth(path: string): Truth {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { role?: string; type?: string; status?: string; message?: { content?: unknown[] } });
  const blocks = (role: string) =>
    lines.filter((l) => l.role === role).flatMap((l) => (l.message?.content ?? []) as Array<Record<string, string>>);
  return {
    sessions: ["cursor-session-simple"],
    prompts: blocks("user").flatMap((b) =>
      [...(b["text"] ?? "").matchAll(/<user_query>\n(.*)\n<\/user_query>/gs)].map((m) => m[1]!),
    ),
    toolCalls: tally(
      blocks("assistant")
        .filter((b) => b["type"] === "tool_use")
        .map((b) => b["name"]!),
    ),
    errors: lines.filter((l) => l.type === "turn_ended" && l.status === "error").length,
  };
}

/** The editor's chats as its tables say: composers with messages, the person's bubbles, `toolFormerData` calls. */
function databaseTruth(path: string): Truth {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const all = (sql: string) => db.prepare(sql).all() as Array<Record<string, string | number | null>>;
    const bubbles = `SELECT value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'`;
    return {
      sessions: all(
        `SELECT substr(key, 14) AS id FROM cursorDiskKV WHERE key LIKE 'composerData:%'
         AND json_array_length(value, '$.fullConversationHeadersOnly') > 0`,
      ).map((r) => String(r["id"])),
      prompts: all(
        `SELECT json_extract(value, '$.text') AS t FROM (${bubbles}) WHERE json_extract(value, '$.type') = 1`,
      )
        .map((r) => String(r["t"]))
        .filter((t) => t.trim() !== ""),
      toolCalls: tally(
        all(`SELECT json_extract(value, '$.toolFormerData.name') AS n FROM (${bubbles}) WHERE n IS NOT NULL`).map((r) =>
          String(r["n"]),
        ),
      ),
      errors: all(`SELECT 1 FROM (${bubbles}) WHERE json_extract(value, '$.toolFormerData.status') = 'error'`).length,
    };
  } finally {
    db.close();
  }
}

/** What cairn made of the files, in the same terms. */
function observed(r: { sessions: Array<{ session_id: string }>; events: SessionEvent[] }): Truth {
  return {
    sessions: r.sessions.map((s) => s.session_id),
    prompts: r.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text),
    toolCalls: byTool(r.events),
    errors: r.events.filter((e) => e.event_type === "error" || (e.event_type === "tool_result" && e.status === "error"))
      .length,
  };
}

describe("Cursor's agent transcript (agent-transcripts/*.jsonl)", () => {
  const truth = transcriptTruth(TRANSCRIPT);

  it("gives the session, prompts, tool calls and errors the lines hold, with no problem", () => {
    const r = inspectPaths([TRANSCRIPT], REPO);
    expect(r.files.map((f) => f.provider)).toEqual(["cursor"]);
    expect(r.problems).toEqual([]);
    expect(observed(r)).toEqual(truth);
    expect(truth.prompts).toEqual(["Generate a file with all the HBO shows from the 90's in it"]);
  });

  it("knows the folder it worked in from its project folder's name, and the files it touched", () => {
    const r = inspectPaths([TRANSCRIPT], REPO);
    expect(r.sessions[0]).toMatchObject({ kind: "main", cwd: "/Users/aidancunniffe/Desktop/testing-gitflows-git-ai" });
    // No results in the format: each call's outcome is unknown, never a failure it did not report.
    const results = r.events.filter((e) => e.event_type === "tool_result");
    expect(results).toHaveLength(Object.values(truth.toolCalls).reduce((a, b) => a + b, 0));
    expect(results.every((e) => e.status !== "error")).toBe(true);
    const written = r.events.filter((e) => e.event_type === "file_action" && e.meta["op"] === "write");
    expect(written.map((e) => e.text)).toEqual(["write hbo-shows-1990s.txt"]);
  });

  it("reads the same in pieces as whole (the state goes through JSON between them)", () => {
    const whole = parseFile(TRANSCRIPT);
    const pieces = parseFile(TRANSCRIPT, [1, 4, 7, 10]);
    expect(pieces.events.map((e) => [e.event_id, e.event_type, e.text])).toEqual(
      whole.events.map((e) => [e.event_id, e.event_type, e.text]),
    );
    expect(pieces.problems).toEqual([]);
  });

  it("leaves the model's withheld reasoning (`[REDACTED]`) out of the replies", () => {
    const r = inspectPaths([TRANSCRIPT], REPO);
    const replies = r.events.filter((e) => e.event_type === "assistant_message").map((e) => e.text);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.filter((t) => t.includes("[REDACTED]"))).toEqual([]);
  });
});

describe("Cursor's editor chats (globalStorage/state.vscdb)", () => {
  const truth = databaseTruth(STATE_DB);

  it("gives the chats, prompts, tool calls and errors the tables hold, with no problem", () => {
    const r = inspectPaths([STATE_DB], REPO);
    expect(r.files.map((f) => f.provider)).toEqual(["cursor"]);
    expect(r.problems).toEqual([]);
    expect(observed(r)).toEqual(truth);
    expect(truth.prompts).toHaveLength(2);
  });

  it("names the chat, its model and times, and gives each call its result", () => {
    const r = inspectPaths([STATE_DB], REPO);
    expect(r.sessions).toHaveLength(1);
    expect(r.sessions[0]).toMatchObject({
      title: "Retrieve SQLite cursor queries",
      model: "gpt-5",
      started_at: "2025-10-07T18:28:43.898Z",
      meta: { composer_version: 10, mode: "agent" },
    });
    const calls = r.events.filter((e) => e.event_type === "tool_call");
    const results = r.events.filter((e) => e.event_type === "tool_result");
    expect(results.map((e) => e.parent_event_id)).toEqual(calls.map((e) => e.event_id));
    // The patch it applied and the file it read by `target_file`.
    const actions = r.events.filter((e) => e.event_type === "file_action").map((e) => e.meta["op"]);
    expect(actions).toEqual(["read", "read", "read", "read", "read", "edit"]);
  });
});

describe("cairn finds Cursor's files by itself", () => {
  const env = (home: string) => {
    const out: Record<string, string> = { HOME: home, CAIRN_DB: join(home, "cairn.db") };
    for (const name of rootsWithoutOverrides("~").overrides) out[name] = "";
    return out;
  };
  const sessions = (e: Record<string, string>) => {
    const listed = cairn(["sessions", "--all", "--json", "--provider", "cursor"], { env: e });
    expect(listed.code, listed.stderr).toBe(0);
    return (JSON.parse(listed.stdout) as Array<{ session_id: string }>).map((s) => s.session_id).sort();
  };
  const expected = [...transcriptTruth(TRANSCRIPT).sessions, ...databaseTruth(STATE_DB).sessions].sort();

  it("with `cairn index --root`", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-cursor-root-"));
    temps.push(home);
    const index = cairn(["index", "--root", HOME, "--json"], { env: env(home) });
    expect(index.code, index.stderr).toBe(0);
    expect(sessions(env(home))).toEqual(expected);
  });

  it("in a fresh HOME, and `cairn doctor` has nothing to say of it", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-cursor-home-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    const index = cairn(["index", "--json"], { env: env(home) });
    expect(index.code, index.stderr).toBe(0);
    expect(sessions(env(home))).toEqual(expected);
    expect(findings(home)).toEqual([]);
  });

  it("and `cairn doctor` names a record type Cursor starts writing that cairn does not know", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-cursor-drift-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    const copy = TRANSCRIPT.replace(HOME, home);
    appendFileSync(copy, '{"type":"hologram","text":"a record of a newer release"}\n');
    expect(cairn(["index", "--json"], { env: env(home) }).code).toBe(0);
    expect(findings(home)).toEqual([
      expect.stringContaining(`record type 'hologram' cairn does not know, in 1 file (first at ${copy}:12)`),
    ]);
  });

  const findings = (home: string) => {
    const doctor = cairn(["doctor", "--json"], { env: env(home) });
    const answer = JSON.parse(doctor.stdout) as { agents: Array<{ provider: string; findings: string[] }> };
    return answer.agents.find((a) => a.provider === "cursor")?.findings;
  };
});

describe("Cursor's folders", () => {
  const dirs = (env: Record<string, string>) =>
    defaultRoots(env, "/home/u")
      .filter((r) => r.provider === "cursor")
      .map((r) => r.dir);

  it("are its projects folder and the editor's global storage on Linux and macOS, moved by their variables", () => {
    expect(dirs({})).toEqual([
      "/home/u/.cursor/projects",
      "/home/u/.config/Cursor/User/globalStorage",
      "/home/u/Library/Application Support/Cursor/User/globalStorage",
    ]);
    expect(dirs({ CURSOR_CONFIG_DIR: "/c", XDG_CONFIG_HOME: "/x" })).toEqual([
      "/home/u/.cursor/projects",
      "/c/projects",
      "/x/Cursor/User/globalStorage",
      "/home/u/Library/Application Support/Cursor/User/globalStorage",
    ]);
  });

  it("hold the editor's database as a transcript, not its backup", () => {
    expect(isTranscriptFile("state.vscdb")).toBe(true);
    expect(isTranscriptFile("state.vscdb.backup")).toBe(false);
  });
});
