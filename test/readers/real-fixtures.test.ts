/**
 * Every real transcript in ../shared/fixtures/real: no crash, no problem lines, and the counts of what the files
 * really contain. The expected numbers were counted from the raw JSON independently of cairn's readers (tool_use
 * blocks, is_error / isError flags, exit codes in Codex outputs, compaction records, check commands).
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/topology/types.ts";
import { byTool, count, parseFile, realFixture, realFixtures } from "../helpers/transcripts.ts";

/** Results of the tools the agent called (not the harness's injected text, not the user's own `!` or `/` runs). */
const agentResult = (e: SessionEvent) => e.meta["harness"] !== true && e.meta["user_initiated"] !== true;

describe("real transcripts", () => {
  it("parse without crashes or problems", () => {
    const files = realFixtures();
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const parsed = parseFile(f);
      expect(parsed.problems, f).toEqual([]);
      expect(parsed.sessions.length, f).toBe(1);
      for (const e of parsed.events) {
        expect(e.source_file).toBe(f);
        expect(e.source_line).toBeGreaterThan(0);
        expect(e.event_id).toMatch(/^[0-9a-f]{16}$/);
      }
      // ordinals are dense per session
      const ords = parsed.events.map((e) => e.ordinal).sort((a, b) => a - b);
      expect(ords, f).toEqual(ords.map((_, i) => i));
    }
  });

  it("Claude Code 1.0.x large conversation", () => {
    const p = parseFile(realFixture("claude/episodic-memory__large-conversation.jsonl"));
    const [s] = p.sessions;
    expect(s).toMatchObject({
      provider: "claude",
      kind: "main",
      session_id: "0fae0449-64d3-4788-8622-d3a47d82c14b",
      git_branch: "feature-branch",
    });
    // tool_use blocks, plus the one slash command the user ran (`/context`)
    expect(byTool(p.events)).toEqual({
      Bash: 77,
      Edit: 43,
      Read: 24,
      TodoWrite: 5,
      Grep: 1,
      "mcp__private-journal__process_thoughts": 2,
      slash_command: 1,
    });
    expect(count(p.events, "tool_result", agentResult)).toBe(152);
    expect(count(p.events, "tool_result", (e) => e.status === "error")).toBe(22);
    // errors of the tools; the user's pasted CI logs, dev-server output and trace add their own (topology/pasted)
    expect(count(p.events, "error", (e) => e.meta["pasted"] !== true)).toBe(22);
    expect(count(p.events, "error", (e) => e.meta["pasted"] === true)).toBe(4);
    // one assistant_message per API message id, however many lines it was written over
    expect(count(p.events, "assistant_message")).toBe(170);
    expect(count(p.events, "command")).toBe(77);
    expect(count(p.events, "test_result", (e) => e.meta["pasted"] !== true)).toBe(17);
    expect(count(p.events, "resume_point")).toBe(0);
    expect(count(p.events, "user_message", (e) => e.role === "user")).toBe(21);
    // user messages are only what the user typed; interrupts and the caveat are the harness's output
    expect(count(p.events, "user_message")).toBe(21);
    expect(count(p.events, "tool_result", (e) => e.meta["interrupt"] === true && e.role === "system")).toBe(4);
    expect(count(p.events, "tool_result", (e) => e.meta["harness"] === true)).toBe(5);
    // both `summary` lines (titles of earlier conversations, by leaf) are kept on the session
    expect(p.sessions[0]!.meta["summaries"]).toEqual([
      { summary: "Debugging Complex Web App Authentication and Performance Issues", leaf_uuid: expect.any(String) },
      { summary: "Clarifying AI Assistant's Action-Taking Guidelines", leaf_uuid: expect.any(String) },
    ]);
  });

  it("Claude Code 2.0 session with a compaction and queued steering", () => {
    const p = parseFile(realFixture("claude/codemie__session-624a4a58.jsonl"));
    expect(byTool(p.events)).toEqual({ Edit: 23, Read: 19, Bash: 3, Write: 2, Grep: 1, slash_command: 1 });
    const points = p.events.filter((e) => e.event_type === "resume_point");
    expect(points).toHaveLength(1);
    expect(points[0]!.meta).toMatchObject({ kind: "compaction", trigger: "auto", pre_tokens: 155979 });
    expect(points[0]!.text).toMatch(/^This session is being continued from a previous conversation/);
    const typed = p.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text);
    expect(typed).toContain("no, add conversationId field, but set value from sessionId");
    // the `/clear` command echo is not a typed prompt but a call the user ran; no user message is harness text
    expect(typed.some((t) => t.includes("/clear"))).toBe(false);
    expect(count(p.events, "user_message", (e) => e.role !== "user")).toBe(0);
    expect(p.events.find((e) => e.event_type === "tool_call" && e.tool_name === "slash_command")?.text).toBe("/clear");
    expect(count(p.events, "command")).toBe(3);
    expect(count(p.events, "error")).toBe(0);
  });

  it("Claude Code 2.1 parent session and its subagents/ file", () => {
    const parent = parseFile(realFixture("claude/codemie-incremental-subagents/turn-2.jsonl"));
    expect(parent.sessions[0]).toMatchObject({ session_id: "e9fb405b-169f-40eb-9396-7e75076f045d", kind: "main" });
    // its `summary` line titles another session's leaf: session metadata, not the title
    expect(parent.sessions[0]!.meta).toMatchObject({
      summary: "Metrics Calculations Verification and Discrepancy Analysis",
      summaries: [
        {
          summary: "Metrics Calculations Verification and Discrepancy Analysis",
          leaf_uuid: "0a6dceb2-6d3b-470f-9095-7b9e711dfa58",
        },
      ],
    });
    // The summary may title another session's leaf: the first request titles this one.
    expect(parent.sessions[0]!.title).toBe('@"solution-architect (agent)" analyze existing CLI command and create…');
    expect(byTool(parent.events)).toEqual({ Task: 1, Bash: 6, Read: 4, Glob: 2, Write: 1 });
    const sub = parseFile(realFixture("claude/codemie-incremental-subagents/turn-2/subagents/agent-a485154.jsonl"));
    expect(sub.sessions[0]).toMatchObject({
      session_id: "e9fb405b-169f-40eb-9396-7e75076f045d:agent-a485154",
      kind: "subagent",
      parent_session_id: "e9fb405b-169f-40eb-9396-7e75076f045d",
    });
    expect(byTool(sub.events)).toEqual({ Read: 11, Glob: 3, Grep: 3, Bash: 3 });
    expect(count(sub.events, "error")).toBe(1);
    expect(
      sub.edges.some((e) => e.edge_type === "spawned_by" && e.dst === "session:e9fb405b-169f-40eb-9396-7e75076f045d"),
    ).toBe(true);
  });

  it("Codex 0.66 rollout", () => {
    const p = parseFile(
      realFixture("codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"),
    );
    expect(p.sessions[0]).toMatchObject({
      provider: "codex",
      kind: "main",
      git_branch: "codex",
      model: "gpt-5.1-codex-max",
    });
    expect(byTool(p.events)).toEqual({ shell_command: 4, apply_patch: 1 });
    expect(count(p.events, "tool_result", (e) => e.status === "error")).toBe(2);
    expect(count(p.events, "error", (e) => e.text === "error: target shim binary not found")).toBe(2);
    expect(count(p.events, "command")).toBe(4);
    // the injected <environment_context> is not a typed prompt; event_msg and response_item copies are one prompt
    expect(p.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text)).toEqual([
      "add myapp directory and create myapp/hoge.py which shows result of print(1+1).",
      expect.any(String),
    ]);
    expect(
      p.events.some(
        (e) => e.event_type === "file_action" && e.file_path === "/Users/zawakin/agent-sample/myapp/hoge.py",
      ),
    ).toBe(true);
  });

  it("Codex 0.104 redacted rollout (structure only)", () => {
    const p = parseFile(
      realFixture("codex/localpush__rollout-2026-02-23T12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl"),
    );
    expect(byTool(p.events)).toEqual({ exec_command: 118, write_stdin: 14, apply_patch: 10, update_plan: 2 });
    expect(count(p.events, "tool_result", agentResult)).toBe(143);
    expect(count(p.events, "user_message", (e) => e.role === "user")).toBe(7);
    // developer instructions and unpaired injected items are the harness's, not the user's
    expect(count(p.events, "user_message", (e) => e.role !== "user")).toBe(0);
    expect(count(p.events, "tool_result", (e) => e.meta["harness"] === true && e.role === "developer")).toBe(15);
    expect(count(p.events, "tool_result", (e) => e.meta["harness"] === true && e.role === "system")).toBe(6);
  });

  it("pi v1 large session", () => {
    const p = parseFile(realFixture("pi/pi-mono__large-session.jsonl"));
    expect(p.sessions[0]).toMatchObject({
      provider: "pi",
      cwd: "/Users/badlogic/workspaces/pi-mono",
      project: "pi-mono",
    });
    expect(byTool(p.events)).toEqual({ bash: 192, edit: 146, read: 50, write: 3 });
    expect(count(p.events, "tool_result")).toBe(373);
    expect(count(p.events, "tool_result", (e) => e.status === "error")).toBe(19);
    expect(count(p.events, "user_message", (e) => e.role === "user")).toBe(88);
    expect(count(p.events, "assistant_message")).toBe(453);
    expect(count(p.events, "command")).toBe(192);
    expect(count(p.events, "test_result", (e) => e.meta["pasted"] !== true)).toBe(62);
    // 19 failed tool results + the one assistant turn that ended with stopReason "error" + 12 checks piped through a
    // filter (`| tail`, `| grep`) whose output shows the failure their exit status hid
    expect(count(p.events, "error", (e) => e.meta["pasted"] !== true)).toBe(32);
    expect(count(p.events, "error", (e) => e.meta["pasted"] === true)).toBe(2);
    expect(count(p.events, "error", (e) => e.meta["signature"] !== undefined && e.role === "tool")).toBe(31);
    // the 21 aborted turns are their assistant messages, marked; no user message is harness text
    expect(count(p.events, "assistant_message", (e) => e.status === "aborted")).toBe(21);
    expect(count(p.events, "user_message", (e) => e.role !== "user")).toBe(0);
    // the turn that ended with "terminated": its error hangs off the message (its 16 edits have no results)
    const failedTurn = p.events.find((e) => e.event_type === "assistant_message" && e.status === "error")!;
    expect(p.events.find((e) => e.event_type === "error" && e.role === "system")).toMatchObject({
      text: "terminated",
      parent_event_id: failedTurn.event_id,
    });
    expect(count(p.events, "tool_call", (e) => e.parent_event_id === failedTurn.event_id)).toBe(16);
  });

  it("pi v3 session with session_info and model_change", () => {
    const p = parseFile(realFixture("pi/agent-history__real_sessions_pi_session-01.jsonl"));
    expect(p.sessions[0]).toMatchObject({
      title: "agent-history pi smoke",
      model: "gpt-5.5",
      meta: { format_version: 3 },
    });
    expect(count(p.events, "user_message")).toBe(1);
    expect(count(p.events, "assistant_message")).toBe(1);
    // v2/v3 tree: the assistant's parent edge points at the user message
    const user = p.events.find((e) => e.event_type === "user_message")!;
    const asst = p.events.find((e) => e.event_type === "assistant_message")!;
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: asst.event_id, dst: user.event_id, edge_type: "parent" }),
    );
  });
});
