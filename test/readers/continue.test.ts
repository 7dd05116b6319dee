/**
 * Continue's sessions, on copies of what its CLI wrote: one JSON document per session read whole; found under
 * `$CONTINUE_GLOBAL_DIR`, with the index beside the sessions never taken for one; a failed shell command's exit code
 * and stderr told apart from the tool's wording; a message role or tool state a newer release adds is a problem and
 * kept aside, never a message; and the IDE's shapes (a `thinking` message, a `tool` message) read too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { continueReader } from "../../src/readers/continue/reader.ts";
import { detectReader } from "../../src/readers/detect.ts";
import { defaultRoots, isTranscriptFile } from "../../src/readers/roots.ts";
import type { RawRecord } from "../../src/readers/types.ts";
import { REPO } from "../helpers/transcripts.ts";

const SESSIONS = join(REPO, "test", "fixtures", "clients", "continue", "1.5.47", "home", ".continue", "sessions");
const docs = readdirSync(SESSIONS)
  .filter((f) => f !== "sessions.json")
  .map((f) => join(SESSIONS, f));
const index = readFileSync(join(SESSIONS, "sessions.json"), "utf8");

/** The records of a document given whole, as the indexer gives a `wholeFile` transcript. */
function read(doc: unknown, context: Record<string, string> = {}, path = join(SESSIONS, "x.json")) {
  const state = continueReader.initialState(path, context);
  const text = typeof doc === "string" ? doc : JSON.stringify(doc, null, 2);
  return continueReader.parse([{ text, line: 1 }], state);
}

const kinds = (records: RawRecord[]) => records.map((r) => r.kind);

describe("where Continue keeps its sessions", () => {
  it("~/.continue/sessions, or under $CONTINUE_GLOBAL_DIR", () => {
    const dirs = (env: Record<string, string>) =>
      defaultRoots(env, "/home/u")
        .filter((r) => r.provider === "continue")
        .map((r) => r.dir);
    expect(dirs({})).toEqual(["/home/u/.continue/sessions"]);
    expect(dirs({ CONTINUE_GLOBAL_DIR: "/c" })).toEqual(["/c/sessions"]);
  });

  it("a session is `<uuid>.json`; the index beside them is not one", () => {
    expect(isTranscriptFile("1c8897ba-cb61-4127-ae28-ba1c7b6a2d9e.json")).toBe(true);
    expect(isTranscriptFile("sessions.json")).toBe(false);
    // Line by line (the index is an array) and by its head, it is no agent's.
    expect(detectReader("", index.split("\n").slice(0, 8))).toBeNull();
  });

  it("a session is told by its content, pretty-printed or on one line", () => {
    for (const file of docs) {
      const text = readFileSync(file, "utf8");
      expect(detectReader("", text.split("\n").slice(0, 8))?.provider).toBe("continue");
      expect(detectReader("", [JSON.stringify(JSON.parse(text))])?.provider).toBe("continue");
    }
  });
});

describe("a session the CLI wrote", () => {
  it("has the folder it worked in, its title and when the index says it was created", () => {
    const file = docs[0]!;
    const id = JSON.parse(readFileSync(file, "utf8")).sessionId as string;
    const created = (JSON.parse(index) as Array<{ sessionId: string; dateCreated: string }>).find(
      (e) => e.sessionId === id,
    )!.dateCreated;
    const r = read(readFileSync(file, "utf8"), { [join(SESSIONS, "sessions.json")]: index }, file);
    expect(r.records[0]).toMatchObject({
      kind: "session",
      sessionId: id,
      cwd: "/tmp/cairn-clients/continue/project",
      title: "Fix the failing add test",
      startedAt: new Date(Number(created)).toISOString(),
    });
    expect(r.problems).toEqual([]);
  });

  it("a file it read is the result of its Read, without the line naming the file", () => {
    const records = docs.flatMap((f) => read(readFileSync(f, "utf8")).records);
    const call = records.find((r) => r.kind === "tool_call" && r.name === "Read");
    const got = records.find((r) => r.kind === "tool_result" && r.callId === (call as { callId: string }).callId);
    expect(got).toMatchObject({ output: "function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n" });
  });

  it("a failed command's result is its stderr, with its exit code", () => {
    const records = docs.flatMap((f) => read(readFileSync(f, "utf8")).records);
    const failed = records.filter((r) => r.kind === "tool_result" && r.isError);
    expect(failed).toContainEqual(
      expect.objectContaining({ output: "FAIL add(2, 2) = 0, expected 4\n", exitCode: 1, isError: true }),
    );
  });
});

describe("Continue's own tools", () => {
  it("Read and Write name their file `filepath`: the files it read and wrote", () => {
    const actions = inspectPaths([SESSIONS], REPO)
      .events.filter((e) => e.event_type === "file_action")
      .map((e) => [e.meta["op"], e.file_path]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ["read", "/tmp/cairn-clients/continue/project/math.js"],
        ["write", "/tmp/cairn-clients/continue/project/NOTES.md"],
        ["edit", "/tmp/cairn-clients/continue/project/math.js"],
      ]),
    );
  });
});

describe("what a newer release may add", () => {
  const doc = (history: unknown[]) => ({ sessionId: "s1", title: "t", workspaceDirectory: "/w", history });
  const call = (id: string) => ({ id, type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } });

  it("an unknown message role is a problem, counted once, and no message", () => {
    const r = read(
      doc([
        { message: { role: "user", content: "TASK-A: go" }, contextItems: [] },
        { message: { role: "hologram", content: "shimmer" }, contextItems: [] },
        { message: { role: "hologram", content: "again" }, contextItems: [] },
      ]),
    );
    expect(r.problems.map((p) => p.reason)).toEqual(["unknown record type 'message/hologram'"]);
    expect(r.records.filter((x) => x.kind === "message").map((x) => (x as { text: string }).text)).toEqual([
      "TASK-A: go",
    ]);
    expect(r.state.unknown["message/hologram"]).toMatchObject({ text: "shimmer" });
  });

  it("an unknown tool call state is a problem, not a result", () => {
    const r = read(
      doc([
        {
          message: { role: "assistant", content: "", toolCalls: [call("c1")] },
          contextItems: [],
          toolCallStates: [{ toolCallId: "c1", toolCall: call("c1"), status: "teleported", output: [] }],
        },
      ]),
    );
    expect(r.problems.map((p) => p.reason)).toEqual(["unknown record type 'toolCallState/teleported'"]);
    expect(kinds(r.records)).toEqual(["session", "tool_call", "session"]);
  });

  it("the IDE's reasoning and tool messages: thinking goes with the reply, a tool message answers its call once", () => {
    const r = read(
      doc([
        { message: { role: "user", content: [{ type: "text", text: "TASK-A: go" }] }, contextItems: [] },
        { message: { role: "thinking", content: "Look first." }, contextItems: [] },
        { message: { role: "assistant", content: "Listing.", toolCalls: [call("c1"), call("c2")] }, contextItems: [] },
        { message: { role: "tool", content: "a.txt", toolCallId: "c1" }, contextItems: [] },
        {
          message: { role: "assistant", content: "", toolCalls: [call("c3")] },
          contextItems: [],
          toolCallStates: [{ toolCallId: "c3", status: "done", output: [{ content: "b.txt" }] }],
        },
        { message: { role: "tool", content: "b.txt again", toolCallId: "c3" }, contextItems: [] },
      ]),
    );
    expect(r.problems).toEqual([]);
    const reply = r.records.find((x) => x.kind === "message" && x.role === "assistant");
    expect(reply).toMatchObject({ text: "Listing.", meta: { thinking: "Look first." } });
    const results = r.records.filter((x) => x.kind === "tool_result");
    expect(results.map((x) => [x.callId, x.output])).toEqual([
      ["c1", "a.txt"],
      ["c3", "b.txt"],
    ]);
  });

  it("a compaction's summary is a resume point, not a reply", () => {
    const r = read(doc([{ message: { role: "assistant", content: "S" }, contextItems: [], conversationSummary: "S" }]));
    expect(kinds(r.records)).toEqual(["session", "resume_point"]);
    expect(r.records[1]).toMatchObject({ pointKind: "compaction", text: "S" });
  });

  it("a document cut short while it was rewritten is a problem, read again when the file changes", () => {
    const r = read('{"sessionId": "s1", "title": "t", "workspaceDirectory": "/w", "history": [');
    expect(r.records).toEqual([]);
    expect(r.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/^invalid JSON/)]);
  });
});
