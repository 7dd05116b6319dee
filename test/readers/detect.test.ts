/**
 * Formats are told apart by the shape of a record, never by one key: a transcript copied out of its agent's folder
 * is read by its own reader from its content alone, and the files agents write beside their transcripts (Qwen
 * Code's usage log with its `sessionId`, Cline's hook log) are no agent's transcript. Gemini CLI chats get their
 * folder from the project files the CLI writes beside them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { detectReader, READERS } from "../../src/readers/detect.ts";
import { projectFolder } from "../../src/readers/gemini/project.ts";
import { isTranscriptFile } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Every client fixture's files, with the agent that wrote them and whether truth.json names them sidecars. */
function fixtureFiles(): Array<{ agent: string; file: string; sidecar: boolean }> {
  const out: Array<{ agent: string; file: string; sidecar: boolean }> = [];
  for (const agent of readdirSync(ROOT))
    for (const version of readdirSync(join(ROOT, agent))) {
      const dir = join(ROOT, agent, version);
      const truth = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as { sidecars?: string[] };
      const sidecars = new Set((truth.sidecars ?? []).map((f) => join(dir, "home", f)));
      for (const file of filesUnder(join(dir, "home"))) out.push({ agent, file, sidecar: sidecars.has(file) });
    }
  return out;
}

/** The first lines detection reads, from the file's content only (no path). */
function head(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").slice(0, 8);
}

describe("detection by content", () => {
  const files = fixtureFiles().filter(
    // A file its agent says is none although named like one (gptme's `lossless.jsonl` copy) is never looked at.
    (f) => isTranscriptFile(f.file.replace(/^.*\//, ""), f.file) && !/\.(db|sqlite)$/.test(f.file),
  );
  /** A fork's file whose content is its parent's format (OpenClaw's pi sessions): only its folder tells. */
  const byFolder = (file: string) => READERS.some((r) => r.byFolder && r.detect(file, ""));

  it("covers the sidecars the clients wrote", () => {
    expect(files.filter((f) => f.sidecar).map((f) => relative(ROOT, f.file).split("/")[0])).toEqual(
      expect.arrayContaining(["cline", "qwen"]),
    );
  });

  for (const { agent, file, sidecar } of files)
    it(`${relative(ROOT, file)}`, () => {
      // A line-per-record transcript says what it is in its first lines; Cline's one document on its own path.
      const reader = detectReader(file.endsWith(".json") || byFolder(file) ? file : "", head(file));
      expect(reader?.provider ?? null).toBe(sidecar ? null : agent);
    });

  const lines: Array<[string, string | null]> = [
    // Qwen Code's usage log: a `sessionId`, no record of a conversation
    [`{"version":1,"sessionId":"4baf07ef","timestamp":1796533521544,"startTime":1,"project":"/w","models":{}}`, null],
    // a log whose nested payload holds a `type` and a `sessionId`
    [`{"ts":"2026-12-06","hookName":"tool_call","tool_call":{"type":"x","sessionId":"a","uuid":"b"}}`, null],
    [`{"parentUuid":null,"isSidechain":false,"sessionId":"s","uuid":"u","type":"user","message":{}}`, "claude"],
    [`{"type":"summary","summary":"Debugging","leafUuid":"9bc2"}`, "claude"],
    [`{"type":"file-history-snapshot","messageId":"m","snapshot":{},"isSnapshotUpdate":false}`, "claude"],
    [`{"type":"session","version":3,"id":"01a2","timestamp":"2026","cwd":"/w"}`, "pi"],
    [`{"type":"message","session":{"type":"session","id":"x"}}`, null],
    [`{"timestamp":"2026","type":"session_meta","payload":{"id":"019c","cwd":"/w"}}`, "codex"],
    [`{"sessionId":"6ac0","projectHash":"7195","startTime":"2026","kind":"main"}`, "gemini"],
  ];
  for (const [line, provider] of lines)
    it(line, () => expect(detectReader("", [line])?.provider ?? null).toBe(provider));
});

describe("a Nanocoder session copied out of its folder", () => {
  it("is told by the head of its document: its id, its counters, when it was last used", () => {
    const file = filesUnder(join(ROOT, "nanocoder")).find((f) => /[0-9a-f-]{36}\.json$/.test(f))!;
    expect(detectReader("", head(file))?.provider).toBe("nanocoder");
    expect(detectReader("", ["{", '  "id": "x",', '  "title": "t"', "}"])).toBeNull();
  });
});

describe("a pi-format session OpenClaw wrote", () => {
  const header = `{"type":"session","version":3,"id":"01a2","timestamp":"2026","cwd":"/w"}`;
  const cases: Array<[string, string, string | null]> = [
    [
      "is OpenClaw's in an OpenClaw agent's sessions folder",
      "/h/.openclaw/agents/main/sessions/01a2.jsonl",
      "openclaw",
    ],
    ["…in a profile's state folder too", "/h/.openclaw-work/agents/ops/sessions/01a2.jsonl", "openclaw"],
    ["is pi's in pi's folder", "/h/.pi/agent/sessions/--w--/2026_01a2.jsonl", "pi"],
    ["is pi's anywhere else", "/tmp/copy/01a2.jsonl", "pi"],
  ];
  for (const [what, path, provider] of cases)
    it(what, () => expect(detectReader(path, [header])?.provider ?? null).toBe(provider));

  it("and the run trace beside it is no transcript", () => {
    const trace = `{"traceSchema":"openclaw-trajectory","schemaVersion":1,"traceId":"01a2","source":"runtime","type":"session.started","sessionId":"01a2"}`;
    expect(detectReader("/h/.openclaw/agents/main/sessions/01a2.trajectory.jsonl", [trace])).toBeNull();
  });
});

describe("a Gemini CLI chat's folder", () => {
  const chat = "/h/.gemini/tmp/app/chats/session-1.jsonl";
  const registry = JSON.stringify({ projects: { "/w/app": "app", "/w/other": "other" } });
  const cases: Array<[string, string, Record<string, string>, string | null]> = [
    ["from the project's marker", chat, { "/h/.gemini/tmp/app/.project_root": "/w/app\n" }, "/w/app"],
    ["from the registry, by the project's short name", chat, { "/h/.gemini/projects.json": registry }, "/w/app"],
    [
      "a subagent's chat, from its parent's project",
      "/h/.gemini/tmp/other/chats/6ac0/49aa.jsonl",
      { "/h/.gemini/projects.json": registry },
      "/w/other",
    ],
    ["not from files it does not have", chat, {}, null],
    ["not from a registry that does not parse", chat, { "/h/.gemini/projects.json": "{" }, null],
  ];
  for (const [what, path, context, folder] of cases) it(what, () => expect(projectFolder(path, context)).toBe(folder));

  it("from the registry, by the folder's hash (releases before short names named the folders)", async () => {
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update("/w/app").digest("hex");
    expect(projectFolder(`/h/.gemini/tmp/${hash}/chats/session-1.json`, { "/h/.gemini/projects.json": registry })).toBe(
      "/w/app",
    );
  });

  it("what the newest Gemini CLI wrote gives every session its folder", () => {
    const versions = readdirSync(join(ROOT, "gemini")).sort(compareVersions);
    const home = join(ROOT, "gemini", versions.at(-1)!, "home");
    const { sessions } = inspectPaths([home], REPO);
    expect(sessions.length).toBeGreaterThan(1);
    for (const s of sessions)
      expect([s.session_id, s.cwd]).toEqual([s.session_id, "/tmp/cairn-clients/gemini/project"]);
  });
});
