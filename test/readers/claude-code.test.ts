import { describe, expect, it } from "vitest";
import { byTool, count, jsonl, parseText } from "../helpers/transcripts.ts";

const SID = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
const base = {
  sessionId: SID,
  cwd: "/w",
  version: "2.1.7",
  gitBranch: "main",
  isSidechain: false,
  userType: "external",
};
let t = 0;
const ts = () => `2026-01-01T00:00:${String(t++ % 60).padStart(2, "0")}Z`;
const user = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) => ({
  ...base,
  type: "user",
  uuid,
  parentUuid,
  timestamp: ts(),
  message: { role: "user", content },
  ...extra,
});
const asst = (uuid: string, parentUuid: string, id: string, block: unknown, extra: object = {}) => ({
  ...base,
  type: "assistant",
  uuid,
  parentUuid,
  timestamp: ts(),
  requestId: `req_${id}`,
  message: {
    id,
    type: "message",
    role: "assistant",
    model: "claude-x",
    content: [block],
    usage: { input_tokens: 10, output_tokens: 5 },
  },
  ...extra,
});
const FILE = `/h/.claude/projects/-w/${SID}.jsonl`;

describe("Claude Code reader", () => {
  it("merges one API message written over several lines, counting usage once", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "fix the bug"),
        asst("a1", "u1", "msg_1", { type: "thinking", thinking: "hmm" }),
        asst("a2", "a1", "msg_1", { type: "text", text: "Looking." }),
        asst("a3", "a2", "msg_1", { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/w/a.ts" } }),
        user("u2", "a3", [{ type: "tool_result", tool_use_id: "toolu_1", content: "file body" }]),
        asst("a4", "u2", "msg_2", { type: "text", text: "Done." }),
      ),
    );
    const messages = p.events.filter((e) => e.event_type === "assistant_message");
    expect(messages.map((e) => e.text)).toEqual(["Looking.", "Done."]);
    expect(messages[0]!.meta).toMatchObject({ thinking: "hmm", message_id: "msg_1", usage: { input_tokens: 10 } });
    // usage is on the first event only; the merged event keeps the first line's ordinal and line
    expect(messages[0]!.source_line).toBe(2);
    const call = p.events.find((e) => e.event_type === "tool_call")!;
    const result = p.events.find((e) => e.event_type === "tool_result")!;
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: messages[0]!.event_id, dst: call.event_id, edge_type: "calls" }),
    );
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: call.event_id, dst: result.event_id, edge_type: "result" }),
    );
    expect(result.parent_event_id).toBe(call.event_id);
    expect(call.parent_event_id).toBe(messages[0]!.event_id);
    // the next message's tree parent (the tool_result line) resolves to the tool_result event
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: messages[1]!.event_id, dst: result.event_id, edge_type: "parent" }),
    );
  });

  it("a prompt typed while a reply streams does not split the reply", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "go"),
        asst("a1", "u1", "msg_1", { type: "text", text: "part one" }),
        user("u2", "a1", "also check the tests"),
        asst("a2", "a1", "msg_1", { type: "tool_use", id: "toolu_9", name: "Bash", input: { command: "npm test" } }),
      ),
    );
    expect(count(p.events, "assistant_message")).toBe(1);
    expect(count(p.events, "user_message", (e) => e.role === "user")).toBe(2);
  });

  it("compaction: boundary and summary are one resume point", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "start"),
        {
          ...base,
          type: "system",
          subtype: "compact_boundary",
          uuid: "c1",
          parentUuid: null,
          logicalParentUuid: "u1",
          content: "Conversation compacted",
          compactMetadata: { trigger: "manual", preTokens: 1234 },
          timestamp: ts(),
        },
        user("u2", "c1", "This session is being continued from a previous conversation. Summary: …", {
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
        }),
        user("u3", "u2", "next request"),
      ),
    );
    const points = p.events.filter((e) => e.event_type === "resume_point");
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({
      text: expect.stringMatching(/^This session is being continued/),
      meta: { kind: "compaction", trigger: "manual", pre_tokens: 1234 },
    });
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: `session:${SID}`, dst: points[0]!.event_id, edge_type: "resume_point" }),
    );
    // the prompt after the summary hangs off the compaction in the tree
    const next = p.events.find((e) => e.text === "next request")!;
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: next.event_id, dst: points[0]!.event_id, edge_type: "parent" }),
    );
  });

  it("harness text in user envelopes is not a typed prompt", () => {
    const p = parseText(
      FILE,
      jsonl(
        user(
          "u1",
          null,
          "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>",
        ),
        user("u2", "u1", "<local-command-stdout>Set model to opus</local-command-stdout>"),
        user("u3", "u2", "Caveat: The messages below were generated by the user while running local commands.", {
          isMeta: true,
        }),
        user("u4", "u3", "<system-reminder>be nice</system-reminder>"),
        user("u5", "u4", "[Request interrupted by user for tool use]"),
        user("u6", "u5", "<ide_opened_file>The user opened a.ts</ide_opened_file>\nwhy is this slow?"),
      ),
    );
    // Only the words a person typed are a user message; nothing else is dropped.
    const ums = p.events.filter((e) => e.event_type === "user_message");
    expect(ums.map((e) => [e.role, e.text])).toEqual([["user", "why is this slow?"]]);
    // The slash command is a call the user ran, and its stdout that call's result.
    const call = p.events.find((e) => e.event_type === "tool_call")!;
    expect(call).toMatchObject({ tool_name: "slash_command", text: "/model opus", parent_event_id: null });
    expect(call.meta).toMatchObject({ slash_command: "model", user_initiated: true });
    expect(p.events.find((e) => e.event_type === "tool_result" && e.parent_event_id === call.event_id)?.text).toBe(
      "Set model to opus",
    );
    // Injected context and the interrupt notice are the harness's output, role system.
    const harness = p.events.filter((e) => e.meta["harness"] === true);
    expect(harness.map((e) => [e.event_type, e.role, e.text])).toEqual([
      ["tool_result", "system", "Caveat: The messages below were generated by the user while running local commands."],
      ["tool_result", "system", "<system-reminder>be nice</system-reminder>"],
      ["tool_result", "system", "[Request interrupted by user for tool use]"],
    ]);
    expect(harness[2]!.meta).toMatchObject({ interrupt: true, notice: "warning" });
  });

  it("user `!` commands become a shell call and its result", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "<bash-input>npm test</bash-input>"),
        user("u2", "u1", "<bash-stdout>Tests  2 passed (2)</bash-stdout><bash-stderr></bash-stderr>"),
      ),
    );
    expect(byTool(p.events)).toEqual({ bash: 1 });
    expect(p.events.find((e) => e.event_type === "command")).toMatchObject({
      text: "npm test",
      role: "user",
      meta: { user_initiated: true },
    });
    expect(p.events.find((e) => e.event_type === "test_result")).toMatchObject({
      status: "pass",
      meta: { runner: "vitest", passed: 2 },
    });
  });

  it("queued steering is one typed prompt, not two", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "refactor the parser"),
        {
          type: "queue-operation",
          operation: "enqueue",
          timestamp: ts(),
          sessionId: SID,
          content: "and keep the old API",
        },
        { type: "queue-operation", operation: "dequeue", timestamp: ts(), sessionId: SID },
        user("u2", "u1", "and keep the old API"),
      ),
    );
    expect(p.events.filter((e) => e.role === "user").map((e) => e.text)).toEqual([
      "refactor the parser",
      "and keep the old API",
    ]);
  });

  it("API errors and failed tool results are errors with signatures", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "go"),
        {
          ...base,
          type: "system",
          subtype: "api_error",
          uuid: "e1",
          parentUuid: "u1",
          timestamp: ts(),
          error: { status: 529, message: "Overloaded" },
          retryAttempt: 1,
        },
        asst("a1", "e1", "msg_1", {
          type: "tool_use",
          id: "toolu_1",
          name: "Edit",
          input: { file_path: "/w/a.ts", old_string: "x", new_string: "y" },
        }),
        user("u2", "a1", [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            is_error: true,
            content: "<tool_use_error>String to replace not found in file.</tool_use_error>",
          },
        ]),
      ),
    );
    const errors = p.events.filter((e) => e.event_type === "error");
    expect(errors.map((e) => e.meta["signature"])).toEqual(["Overloaded", "String to replace not found in file."]);
    expect(p.events.find((e) => e.event_type === "file_action")).toMatchObject({
      status: "error",
      file_path: "/w/a.ts",
      meta: { op: "edit" },
    });
    expect(p.entities).toContainEqual(
      expect.objectContaining({ kind: "error_signature", key: "String to replace not found in file." }),
    );
  });

  it("inline sidechains (1.0.x) stay in the session, marked", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "go"),
        user("s1", null, "Search for X", { isSidechain: true }),
        asst("s2", "s1", "msg_s", { type: "text", text: "found" }, { isSidechain: true }),
      ),
    );
    expect(p.sessions).toHaveLength(1);
    expect(p.events.filter((e) => e.meta["sidechain"] === true)).toHaveLength(2);
  });

  it("flat agent-*.jsonl files (2.0.x) are subagent sessions; Warmup pings are flagged", () => {
    const file = "/h/.claude/projects/-w/agent-1a2b3c4d.jsonl";
    const p = parseText(
      file,
      jsonl(
        user("w1", null, "Warmup", { isSidechain: true, agentId: "1a2b3c4d" }),
        asst("w2", "w1", "msg_w", { type: "text", text: "ready" }, { isSidechain: true, agentId: "1a2b3c4d" }),
      ),
    );
    expect(p.sessions[0]).toMatchObject({
      session_id: `${SID}:agent-1a2b3c4d`,
      kind: "subagent",
      parent_session_id: SID,
      meta: { warmup: true, layout: "flat" },
    });
  });

  it("a renamed copy is still identified by the session id inside it", () => {
    const p = parseText(
      "/tmp/copy.jsonl",
      jsonl({ type: "summary", summary: "Fix login", leafUuid: "zz" }, user("u1", null, "hi")),
    );
    expect(p.sessions[0]).toMatchObject({ session_id: SID, meta: { summary: "Fix login" } });
  });

  it("every `summary` line is kept with its leaf, before and after the session is known, across batches", () => {
    const lines = jsonl(
      { type: "summary", summary: "Debug auth", leafUuid: "leaf-1" },
      { type: "summary", summary: "Clarify guidelines", leafUuid: "leaf-2" },
      user("u1", null, "hi"),
      { type: "summary", summary: "Ship it", leafUuid: "u1" },
    );
    const summaries = [
      { summary: "Debug auth", leaf_uuid: "leaf-1" },
      { summary: "Clarify guidelines", leaf_uuid: "leaf-2" },
      { summary: "Ship it", leaf_uuid: "u1" },
    ];
    for (const splits of [[], [1], [2, 3]]) {
      const p = parseText("/tmp/copy.jsonl", lines, splits);
      expect(p.sessions[0]!.meta).toMatchObject({ summary: "Ship it", summaries });
      // a title of possibly another session's leaf: metadata, not the title (the request is), and not an event
      expect(p.sessions[0]!.title).toBe("hi");
      expect(p.events).toHaveLength(1);
    }
  });

  it("an API error message: the error hangs off the assistant message", () => {
    const p = parseText(
      FILE,
      jsonl(
        user("u1", null, "hi"),
        asst("a1", "u1", "msg_1", { type: "text", text: "API Error: 529 overloaded" }, { isApiErrorMessage: true }),
      ),
    );
    const msg = p.events.find((e) => e.event_type === "assistant_message")!;
    expect(msg.status).toBe("error");
    expect(p.events.find((e) => e.event_type === "error")).toMatchObject({
      text: "API Error: 529 overloaded",
      parent_event_id: msg.event_id,
    });
  });
});
