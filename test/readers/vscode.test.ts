/**
 * VS Code Copilot Chat on files VS Code itself wrote, committed as test data by git-ai
 * (test/fixtures/editors/vscode/git-ai, SOURCE.md): a session document (`chatSessions/<id>.json`, 2025) and a
 * session log (`chatSessions/<id>.jsonl`, 2026). What they hold is counted here from the raw JSON (the log replayed
 * by a few lines of its own), not with cairn's readers; cairn's reading must give the same sessions, prompts, tool
 * calls and failures, with no problem, and find both in a fresh HOME by itself.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { defaultRoots, rootsWithoutOverrides } from "../../src/readers/roots.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { cairn } from "../helpers/cli.ts";
import { byTool, REPO } from "../helpers/transcripts.ts";

const HOME = join(REPO, "test", "fixtures", "editors", "vscode", "git-ai", "home");
const WORKSPACE = join(HOME, ".config", "Code", "User", "workspaceStorage", "39a2030ded9779b60c8743b641e8bc5c");
const SESSIONS = join(WORKSPACE, "chatSessions");
const FILES = readdirSync(SESSIONS)
  .sort()
  .map((f) => join(SESSIONS, f));

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

type Doc = { sessionId: string; requests: Array<Record<string, unknown>> };
type Part = Record<string, unknown>;

/** The session document: the file itself, or its log's entries applied in order (set, append, delete). */
function documentOf(path: string): Doc {
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".json")) return JSON.parse(text) as Doc;
  let doc: Record<string, unknown> = {};
  for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
    const e = JSON.parse(line) as { kind: number; k?: Array<string | number>; v?: unknown; i?: number };
    if (e.kind === 0) {
      doc = e.v as Record<string, unknown>;
      continue;
    }
    const k = e.k!;
    let at = doc as Record<string | number, unknown>;
    for (const step of k.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
    const last = k[k.length - 1]!;
    if (e.kind === 1) at[last] = e.v;
    if (e.kind === 3) delete at[last];
    if (e.kind === 2) {
      const list = (at[last] ?? []) as unknown[];
      if (e.i !== undefined) list.length = e.i;
      list.push(...((e.v as unknown[]) ?? []));
      at[last] = list;
    }
  }
  return doc as unknown as Doc;
}

interface Truth {
  sessions: string[];
  prompts: string[];
  toolCalls: Record<string, number>;
  errors: number;
}

function truthOf(paths: readonly string[]): Truth {
  const docs = paths.map(documentOf);
  const requests = docs.flatMap((d) => d.requests);
  const parts = requests.flatMap((r) => (r["response"] ?? []) as Part[]);
  const calls = parts.filter((p) => p["kind"] === "toolInvocationSerialized");
  const failedCall = (p: Part) => {
    const data = (p["toolSpecificData"] ?? {}) as { terminalCommandState?: { exitCode?: number } };
    const confirmed = (p["isConfirmed"] as { type?: number } | undefined)?.type;
    const details = p["resultDetails"] as { isError?: boolean } | undefined;
    return (
      confirmed === 0 ||
      confirmed === 5 ||
      details?.isError === true ||
      (data.terminalCommandState?.exitCode ?? 0) !== 0
    );
  };
  const toolCalls: Record<string, number> = {};
  for (const c of calls) toolCalls[String(c["toolId"])] = (toolCalls[String(c["toolId"])] ?? 0) + 1;
  return {
    sessions: docs.map((d) => d.sessionId),
    prompts: requests.map((r) => String((r["message"] as { text: string }).text)),
    toolCalls,
    errors:
      calls.filter(failedCall).length +
      requests.filter((r) => (r["result"] as { errorDetails?: unknown } | undefined)?.errorDetails !== undefined)
        .length,
  };
}

function observed(r: { sessions: Array<{ session_id: string }>; events: SessionEvent[] }): Truth {
  return {
    sessions: r.sessions.map((s) => s.session_id),
    prompts: r.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text),
    toolCalls: byTool(r.events),
    errors: r.events.filter((e) => e.event_type === "error" || (e.event_type === "tool_result" && e.status === "error"))
      .length,
  };
}

describe("VS Code's chat sessions (chatSessions/*.json and *.jsonl)", () => {
  const truth = truthOf(FILES);

  it("gives the sessions, prompts, tool calls and failures the files hold, with no problem", () => {
    const r = inspectPaths(FILES, REPO);
    expect(r.files.map((f) => f.provider)).toEqual(["vscode", "vscode"]);
    expect(r.problems).toEqual([]);
    expect(observed(r)).toEqual(truth);
    expect(truth.prompts).toHaveLength(5);
    expect(Object.values(truth.toolCalls).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("names each chat, its model, times and the Copilot Chat version, and gives each call its result", () => {
    const r = inspectPaths(FILES, REPO);
    expect(r.sessions.map((s) => [s.title, s.model, s.started_at, s.meta["extension_version"]])).toEqual([
      ["Assistance with TypeScript project tasks", "copilot/claude-sonnet-4", "2025-10-07T13:50:46.680Z", "0.31.5"],
      ["Adding a joke to jokes.csv file", "copilot/gpt-4o", "2026-02-08T19:50:42.421Z", "0.37.1"],
    ]);
    const calls = r.events.filter((e) => e.event_type === "tool_call");
    const results = r.events.filter((e) => e.event_type === "tool_result");
    expect(results.map((e) => e.parent_event_id)).toEqual(calls.map((e) => e.event_id));
    // The file read, and the files the edits changed (named by the edit parts after the calls).
    const actions = r.events
      .filter((e) => e.event_type === "file_action")
      .map((e) => `${String(e.meta["op"])} ${e.file_path ?? ""}`);
    expect(actions).toContain("read /Users/svarlamov/projects/testing-git/jokes.csv");
    expect(actions).toContain("edit /Users/svarlamov/projects/testing-git/index.ts");
    expect(actions).toContain("edit /Users/svarlamov/projects/testing-git/jokes.csv");
  });

  it("takes the working folder from the workspace's workspace.json", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-vscode-ws-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    const ws = WORKSPACE.replace(HOME, home);
    writeFileSync(join(ws, "workspace.json"), '{"folder":"file:///Users/svarlamov/projects/testing-git"}');
    const r = inspectPaths([join(ws, "chatSessions")], REPO);
    expect(r.sessions.map((s) => s.cwd)).toEqual([
      "/Users/svarlamov/projects/testing-git",
      "/Users/svarlamov/projects/testing-git",
    ]);
  });

  it("reports a session log entry of a kind it does not know, and still reads the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-vscode-log-"));
    temps.push(dir);
    const copy = join(dir, "chatSessions", "7de89a80-6d93-43e7-be0a-0a9afe980198.jsonl");
    cpSync(dirname(FILES[1]!), dirname(copy), { recursive: true });
    writeFileSync(copy, `${readFileSync(FILES[1]!, "utf8")}{"kind":9,"k":["requests"],"v":[]}\n`);
    const r = inspectPaths([copy], REPO);
    expect(r.problems.map((p) => p.reason)).toEqual(["unknown record type 'log entry kind 9'"]);
    expect(observed(r).prompts).toEqual(truthOf([FILES[1]!]).prompts);
  });
});

describe("cairn finds VS Code's chat sessions by itself", () => {
  const env = (home: string) => {
    const out: Record<string, string> = { HOME: home, CAIRN_DB: join(home, "cairn.db") };
    for (const name of rootsWithoutOverrides("~").overrides) out[name] = "";
    return out;
  };
  const expected = truthOf(FILES).sessions.sort();

  it("in a fresh HOME, reads nothing else of the workspace's storage, and `cairn doctor` has nothing to say", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-vscode-home-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    // Another extension's log beside the sessions folder is not a chat session.
    const other = join(WORKSPACE.replace(HOME, home), "ms-python.python");
    cpSync(SESSIONS.replace(HOME, home), other, { recursive: true });
    const index = cairn(["index", "--json"], { env: env(home) });
    expect(index.code, index.stderr).toBe(0);
    const listed = cairn(["sessions", "--all", "--json", "--provider", "vscode"], { env: env(home) });
    expect(listed.code, listed.stderr).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ session_id: string; source_file: string }>).map((s) => [
      s.session_id,
      s.source_file.includes("/chatSessions/"),
    ]);
    expect(ids.sort()).toEqual(expected.map((id) => [id, true]));
    const doctor = cairn(["doctor", "--json"], { env: env(home) });
    const answer = JSON.parse(doctor.stdout) as { agents: Array<{ provider: string; findings: string[] }> };
    expect(answer.agents.find((a) => a.provider === "vscode")?.findings).toEqual([]);
  });

  it("and a VS Code with no chat sessions (its settings, another extension's storage) is no finding", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-vscode-nochat-"));
    temps.push(home);
    const user = join(home, ".config", "Code", "User");
    mkdirSync(join(user, "globalStorage", "rooveterinaryinc.roo-cline"), { recursive: true });
    writeFileSync(join(user, "settings.json"), "{}");
    const doctor = cairn(["doctor", "--json"], { env: env(home) });
    const answer = JSON.parse(doctor.stdout) as { agents: Array<{ provider: string; findings: string[] }> };
    expect(answer.agents.find((a) => a.provider === "vscode")?.findings).toEqual([]);
  });

  it("and its brief says what the last request did", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-vscode-brief-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    expect(cairn(["index", "--json"], { env: env(home) }).code).toBe(0);
    const brief = cairn(["resume", "7de89a80-6d93-43e7-be0a-0a9afe980198"], { env: env(home) });
    expect(brief.code, brief.stderr).toBe(0);
    expect(brief.stdout).toContain("jokes.csv");
  });
});

describe("VS Code's folders", () => {
  it("are each edition's workspace storage (its sessions folders only) and empty-window store, on Linux and macOS", () => {
    const roots = defaultRoots({}, "/home/u").filter((r) => r.provider === "vscode");
    expect(roots.map((r) => [r.dir, r.folder ?? (r.shallow ? "shallow" : "")])).toContainEqual([
      "/home/u/.config/Code/User/workspaceStorage",
      "chatSessions",
    ]);
    expect(roots.map((r) => r.dir)).toContain(
      "/home/u/Library/Application Support/Code - Insiders/User/globalStorage/emptyWindowChatSessions",
    );
    expect(defaultRoots({ XDG_CONFIG_HOME: "/x" }, "/home/u").map((r) => r.dir)).toContain(
      "/x/VSCodium/User/workspaceStorage",
    );
  });
});
