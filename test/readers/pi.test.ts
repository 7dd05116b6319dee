import { describe, expect, it } from "vitest";
import { count, jsonl, parseText } from "../helpers/transcripts.ts";

const SID = "019e963d-6bd6-7ade-8a49-256ac3391bdd";
const FILE = `/h/.pi/agent/sessions/--w--/2026-06-05T05-24-28-246Z_${SID}.jsonl`;
const header = (extra: object = {}) => ({
  type: "session",
  version: 3,
  id: SID,
  timestamp: "2026-06-05T05:24:28.246Z",
  cwd: "/w",
  ...extra,
});
let n = 0;
const entry = (id: string, parentId: string | null, type: string, body: object) => ({
  type,
  id,
  parentId,
  timestamp: `2026-06-05T05:25:${String(n++ % 60).padStart(2, "0")}.000Z`,
  ...body,
});
const msg = (id: string, parentId: string | null, message: object) => entry(id, parentId, "message", { message });

describe("pi reader", () => {
  it("v3 tree with a branch: both branches kept, each linked to its parent", () => {
    const p = parseText(
      FILE,
      jsonl(
        header(),
        msg("u1", null, { role: "user", content: [{ type: "text", text: "try A" }], timestamp: 1 }),
        msg("a1", "u1", { role: "assistant", content: [{ type: "text", text: "did A" }], stopReason: "stop" }),
        msg("a2", "u1", { role: "assistant", content: [{ type: "text", text: "did B instead" }], stopReason: "stop" }),
        entry("b1", "a2", "branch_summary", { fromId: "a1", summary: "A was abandoned: it broke the build" }),
      ),
    );
    const u1 = p.events.find((e) => e.text === "try A")!;
    const parentsOf = (text: string) =>
      p.edges
        .filter((e) => e.edge_type === "parent" && e.src === p.events.find((x) => x.text === text)!.event_id)
        .map((e) => e.dst);
    expect(parentsOf("did A")).toEqual([u1.event_id]);
    expect(parentsOf("did B instead")).toEqual([u1.event_id]);
    expect(p.events.find((e) => e.event_type === "resume_point")).toMatchObject({
      text: "A was abandoned: it broke the build",
      meta: { kind: "branch_summary", from_id: "a1" },
    });
  });

  it("tool calls, results with isError, and exit codes from bash output", () => {
    const p = parseText(
      FILE,
      jsonl(
        header(),
        msg("u1", null, { role: "user", content: "fix the types" }),
        msg("a1", "u1", {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "check first" },
            { type: "toolCall", id: "t1", name: "bash", arguments: { command: "cd /w && npm run check 2>&1 | tail" } },
            { type: "toolCall", id: "t2", name: "edit", arguments: { path: "src/a.ts", oldText: "x", newText: "y" } },
          ],
          stopReason: "toolUse",
          usage: { input: 10, output: 2, totalTokens: 12 },
        }),
        msg("r1", "a1", {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "bash",
          content: [
            { type: "text", text: "src/a.ts(1,1): error TS2304: Cannot find name 'y'.\n\nCommand exited with code 2" },
          ],
          isError: true,
        }),
        msg("r2", "r1", {
          role: "toolResult",
          toolCallId: "t2",
          toolName: "edit",
          content: [{ type: "text", text: "ok" }],
          isError: false,
          details: { diff: "-x\n+y" },
        }),
      ),
    );
    expect(p.events.find((e) => e.event_type === "assistant_message")!.meta).toMatchObject({
      thinking: "check first",
      usage: { totalTokens: 12 },
    });
    expect(p.events.find((e) => e.event_type === "command")).toMatchObject({
      command: "npm run check",
      status: "error",
      meta: { exit_code: 2 },
    });
    expect(p.events.find((e) => e.event_type === "test_result")).toMatchObject({
      status: "fail",
      meta: { runner: "tsc", failing_tests: ["src/a.ts"] },
    });
    expect(p.events.find((e) => e.event_type === "error")).toMatchObject({ meta: { code: "TS2304" } });
    expect(p.events.find((e) => e.event_type === "file_action")).toMatchObject({
      file_path: "/w/src/a.ts",
      status: "ok",
      meta: { op: "edit", added: 1, removed: 1 },
    });
  });

  it("compaction, label, session_info, custom, custom_message and bashExecution", () => {
    const p = parseText(
      FILE,
      jsonl(
        header(),
        entry("s1", null, "session_info", { name: "auth refactor" }),
        msg("u1", "s1", { role: "user", content: "go" }),
        entry("c1", "u1", "compaction", {
          summary: "## Goal\nrefactor auth",
          firstKeptEntryId: "u1",
          tokensBefore: 50000,
          details: { readFiles: ["a.ts"], modifiedFiles: ["b.ts"] },
        }),
        entry("l1", "c1", "label", { targetId: "u1", label: "before the risky part" }),
        entry("x1", "l1", "custom", {
          customType: "cairn-notebook",
          data: { title: "auth", content: "Decided: tokens live in the keychain" },
        }),
        entry("x2", "x1", "custom", { customType: "some-ext-state", data: { n: 1 } }),
        entry("x3", "x2", "custom", {
          customType: "cairn-notebook",
          data: { version: 1, op: "delete", name: "auth", updatedAt: 1 },
        }),
        entry("m1", "x3", "custom_message", {
          customType: "cairn-handoff",
          content: "Handoff brief: continue with step 3",
          display: true,
          details: {
            direction: "continue with step 3",
            from: "/h/.pi/agent/sessions/--w--/2026-01-01T00-00-00-000Z_0b4f6a0e-1111-4222-8333-944445555666.jsonl",
            citedEventIds: ["a", "b"],
          },
        }),
        msg("b1", "m1", {
          role: "bashExecution",
          command: "git status",
          output: "clean",
          exitCode: 0,
          cancelled: false,
          truncated: false,
        }),
      ),
    );
    expect(p.sessions[0]!.title).toBe("auth refactor");
    expect(p.events.filter((e) => e.event_type === "resume_point").map((e) => [e.meta["kind"], e.text])).toEqual([
      ["compaction", "## Goal\nrefactor auth"],
      ["label", "before the risky part"],
      ["handoff", "Handoff brief: continue with step 3"],
    ]);
    expect(p.events.find((e) => e.meta["kind"] === "compaction")!.meta).toMatchObject({
      tokens_before: 50000,
      modified_files: ["b.ts"],
    });
    // A notebook page is the notebook: kept with its name and what the entry did, neither typed nor decided.
    expect(p.events.filter((e) => e.meta["notebook"] === true).map((e) => [e.role, e.text, e.meta])).toEqual([
      [
        "system",
        "auth\nDecided: tokens live in the keychain",
        { custom_type: "cairn-notebook", notebook: true, notebook_op: "write", page: "auth" },
      ],
      ["system", "auth", { custom_type: "cairn-notebook", notebook: true, notebook_op: "delete", page: "auth" }],
    ]);
    expect(p.events.filter((e) => e.event_type === "decision")).toEqual([]);
    // The brief a handoff carried names the session it was built from.
    expect(p.events.find((e) => e.meta["kind"] === "handoff")!.meta).toMatchObject({
      custom_type: "cairn-handoff",
      from_session: "0b4f6a0e-1111-4222-8333-944445555666",
      direction: "continue with step 3",
      cited_events: 2,
    });
    expect(p.events.find((e) => e.event_type === "command")).toMatchObject({
      text: "git status",
      role: "user",
      status: "ok",
      meta: { exit_code: 0, user_initiated: true },
    });
    expect(p.problems).toEqual([]);
  });

  it("v1: linear, no ids, header with model; parents follow line order", () => {
    const p = parseText(
      "/h/.pi/agent/sessions/--w--/old.jsonl",
      jsonl(
        {
          type: "session",
          id: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617",
          timestamp: "2025-11-20T23:33:50.805Z",
          cwd: "/w",
          provider: "anthropic",
          modelId: "claude-sonnet-4-5",
        },
        {
          type: "message",
          timestamp: "2025-11-20T23:33:51.000Z",
          message: { role: "user", content: [{ type: "text", text: "hi" }] },
        },
        // No event of its own: the next entry's parent is the message before it.
        { type: "thinking_level_change", timestamp: "2025-11-20T23:33:51.500Z", thinkingLevel: "off" },
        {
          type: "message",
          timestamp: "2025-11-20T23:33:52.000Z",
          message: { role: "assistant", content: [], stopReason: "aborted", errorMessage: "Request was aborted" },
        },
      ),
    );
    expect(p.sessions[0]).toMatchObject({ model: "claude-sonnet-4-5", meta: { format_version: 1 } });
    const [user, asst] = p.events;
    expect(asst!.parent_event_id).toBe(user!.event_id);
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: asst!.event_id, dst: user!.event_id, edge_type: "parent" }),
    );
    // The aborted turn is the assistant message, marked, not a user message.
    expect(p.events).toHaveLength(2);
    expect(asst).toMatchObject({
      event_type: "assistant_message",
      status: "aborted",
      text: "Request was aborted",
      meta: { stop_reason: "aborted", error_message: "Request was aborted" },
    });
    expect(count(p.events, "user_message")).toBe(1);
  });

  it("a turn that ended in an error: the error hangs off its message, before its calls", () => {
    const p = parseText(
      FILE,
      jsonl(
        header(),
        msg("u1", null, { role: "user", content: "replace chalk" }),
        msg("a1", "u1", {
          role: "assistant",
          content: [
            { type: "text", text: "Replacing them:" },
            { type: "toolCall", id: "t1", name: "edit", arguments: { path: "a.ts", oldText: "x", newText: "y" } },
          ],
          stopReason: "error",
          errorMessage: "terminated",
        }),
      ),
    );
    const asst = p.events.find((e) => e.event_type === "assistant_message")!;
    expect(asst).toMatchObject({ status: "error", text: "Replacing them:", meta: { error_message: "terminated" } });
    const error = p.events.find((e) => e.event_type === "error")!;
    expect(error).toMatchObject({ text: "terminated", parent_event_id: asst.event_id, ordinal: asst.ordinal + 1 });
    expect(p.edges).toContainEqual({
      src: error.event_id,
      dst: asst.event_id,
      edge_type: "derived_from",
      session_id: SID,
    });
    expect(p.edges.some((e) => e.edge_type === "next" && e.dst === error.event_id)).toBe(false);
  });

  it("entries that become no event stand aside in the tree: children point at their parent", () => {
    const p = parseText(
      FILE,
      jsonl(
        header(),
        entry("s1", null, "session_info", { name: "smoke" }),
        entry("m1", "s1", "model_change", { provider: "openai", modelId: "gpt-5.5" }),
        msg("u1", "m1", { role: "user", content: "hi" }),
        entry("t1", "u1", "thinking_level_change", { thinkingLevel: "off" }),
        entry("x1", "t1", "custom", { customType: "some-ext-state", data: { n: 1 } }),
        msg("a1", "x1", { role: "assistant", content: [{ type: "text", text: "hello" }], stopReason: "stop" }),
      ),
      [4],
    );
    const [user, asst] = p.events;
    expect(user!.parent_event_id).toBeNull();
    expect(asst!.parent_event_id).toBe(user!.event_id);
  });

  it("a fork names its parent session", () => {
    const p = parseText(
      FILE,
      jsonl(
        header({
          parentSession:
            "/h/.pi/agent/sessions/--w--/2026-06-01T00-00-00-000Z_11111111-2222-3333-4444-555555555555.jsonl",
        }),
      ),
    );
    expect(p.sessions[0]).toMatchObject({ kind: "fork", parent_session_id: "11111111-2222-3333-4444-555555555555" });
  });
});
