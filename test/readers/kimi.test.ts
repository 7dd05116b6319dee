/**
 * Kimi CLI on what its own CLI wrote: each session's and subagent's `wire.jsonl` is read, never the `context.jsonl`
 * copies beside them; a session knows its work folder from the hash its folder is named by, a subagent its parent
 * and task; `/compact` is a command, not a prompt, and its answer is the CLI's; bad lines are problems with their
 * line, the rest is still read.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { findTranscripts } from "../../src/indexer/scan.ts";
import { detectReader } from "../../src/readers/detect.ts";
import { defaultRoots } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test", "fixtures", "clients", "kimi", "1.51.0", "home");
const dir = mkdtempSync(join(tmpdir(), "cairn-kimi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copy(): string {
  const home = mkdtempSync(join(dir, "home-"));
  cpSync(FIXTURE, home, { recursive: true });
  return home;
}

describe("Kimi CLI's files", () => {
  it("are found under ~/.kimi/sessions, or under $KIMI_SHARE_DIR", () => {
    const dirs = (env: Record<string, string>) =>
      defaultRoots(env, "/home/u")
        .filter((r) => r.provider === "kimi")
        .map((r) => r.dir);
    expect(dirs({})).toEqual(["/home/u/.kimi/sessions"]);
    expect(dirs({ KIMI_SHARE_DIR: "/k" })).toEqual(["/k/sessions"]);
  });

  it("that are transcripts are the event logs: the context copies beside them are never read", () => {
    const all = readdirSync(FIXTURE, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(all.filter((f) => /context(_\d+)?\.jsonl$/.test(f))).toHaveLength(3);
    const found = findTranscripts(FIXTURE).map((f) => relative(FIXTURE, f).replace(/^.*[\\/]sessions[\\/]/, ""));
    expect(found.map((f) => f.replace(/[0-9a-f-]{20,}|a[0-9a-f]{8}/g, "<id>"))).toEqual([
      "<id>/<id>/subagents/<id>/wire.jsonl",
      "<id>/<id>/wire.jsonl",
    ]);
    expect(inspectPaths([FIXTURE], REPO).problems).toEqual([]);
  });
});

describe("a Kimi CLI session", () => {
  const r = inspectPaths([FIXTURE], REPO);
  const main = r.sessions.find((s) => s.kind === "main");
  const sub = r.sessions.find((s) => s.kind === "subagent");

  it("knows its work folder (the folder its session folder's name hashes, in kimi.json)", () => {
    expect(main).toMatchObject({ provider: "kimi", cwd: "/tmp/cairn-clients/kimi/project", project: "project" });
    expect(main?.started_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("has its subagent as a session of the parent, with the task it was given", () => {
    expect(sub).toMatchObject({ parent_session_id: main?.session_id, title: "Count math.js lines" });
    expect(sub?.session_id).toMatch(new RegExp(`^${main?.session_id}:a[0-9a-f]+$`));
    expect(sub?.meta).toMatchObject({ subagent_type: "coder" });
  });

  it("keeps /compact as a command, the CLI's answer as its own, and the compaction as a resume point", () => {
    const ofMain = r.events.filter((e) => e.session_id === main?.session_id);
    // Both are the harness's, as every agent's injected text is: no prompt, no reply.
    const compact = ofMain.find((e) => e.text === "/compact");
    expect(compact).toMatchObject({ role: "system", meta: { harness: true } });
    const answer = ofMain.find((e) => e.text === "The context has been compacted.");
    expect(answer).toMatchObject({ role: "system", meta: { harness: true } });
    expect(ofMain.filter((e) => e.event_type === "resume_point").map((e) => e.meta["kind"])).toEqual(["compaction"]);
  });

  it("says why a call failed when its output is empty", () => {
    const failed = r.events.filter((e) => e.event_type === "tool_result" && e.status === "error").map((e) => e.text);
    expect(failed).toEqual([
      "FAIL add(2, 2) = 0, expected 4\n",
      "No replacements were made. The old string was not found in the file.",
    ]);
  });
});

describe("a Kimi CLI log with bad lines", () => {
  it("reports each with its line and reads the rest", () => {
    const home = copy();
    const file = findTranscripts(home).find((f) => !/subagents/.test(f))!;
    const before = inspectPaths([home], REPO).events.length;
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(
      2,
      0,
      '{"timestamp": 1796556928.5, "message": {"type": "TurnBegin"',
      '{"timestamp": 1796556928.6, "message": {"type": "Hologram", "payload": {"text": "new"}}}',
    );
    writeFileSync(file, lines.join("\n"));
    const after = inspectPaths([home], REPO);
    expect(after.problems.map((p) => [p.source_line, p.reason])).toEqual([
      [3, expect.stringMatching(/invalid JSON/)],
      [4, "unknown record type 'Hologram'"],
    ]);
    expect(after.events.length).toBe(before);
  });
});

describe("Kimi CLI events beside the conversation", () => {
  it("a retried step and a blocked hook are the harness's notices; a side question and its answer are kept", () => {
    const home = copy();
    const file = findTranscripts(home).find((f) => !/subagents/.test(f))!;
    const event = (type: string, payload: object) =>
      JSON.stringify({ timestamp: 1796556950.5, message: { type, payload } });
    const more = [
      event("StepRetry", {
        n: 1,
        next_attempt: 2,
        max_attempts: 3,
        wait_s: 1,
        error_type: "APIStatusError",
        status_code: 529,
      }),
      event("HookResolved", { event: "PreToolUse", target: "Shell", action: "allow", reason: "" }),
      event("HookResolved", { event: "PreToolUse", target: "Shell", action: "block", reason: "no rm" }),
      event("BtwBegin", { id: "b1", question: "what is add?" }),
      event("BtwEnd", { id: "b1", response: "a function" }),
    ];
    writeFileSync(file, `${readFileSync(file, "utf8")}${more.join("\n")}\n`);
    const r = inspectPaths([home], REPO);
    expect(r.problems).toEqual([]);
    const main = r.sessions.find((x) => x.kind === "main")!.session_id;
    const texts = r.events.filter((e) => e.session_id === main).map((e) => [e.event_type, e.role, e.text]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ["tool_result", "system", "APIStatusError (HTTP 529); retrying, attempt 2 of 3"],
        ["tool_result", "system", "A PreToolUse hook blocked Shell: no rm"],
        ["user_message", "user", "what is add?"],
        ["assistant_message", "assistant", "a function"],
      ]),
    );
  });
});

describe("detecting a Kimi CLI log by its records", () => {
  const cases: Array<[string, string | null]> = [
    ['{"type": "metadata", "protocol_version": "1.10"}', "kimi"],
    ['{"timestamp": 1796556928.44, "message": {"type": "TurnBegin", "payload": {"user_input": "hi"}}}', "kimi"],
    // The context copy beside it, and records that share one key with the log's
    ['{"role": "_system_prompt", "content": "You are Kimi Code CLI"}', null],
    ['{"type": "metadata", "timestamp": 1796556928.44}', null],
    ['{"timestamp": 1796556928.44, "message": "hello"}', null],
  ];
  for (const [line, provider] of cases)
    it(line, () => expect(detectReader("", [line])?.provider ?? null).toBe(provider));
});
