/**
 * A tool call's typed input (`meta.input`) on transcripts written by each agent's own CLI: the kind is right for
 * edit, write, read, shell and plan calls, and every value it holds is one the agent really sent (found, JSON-escaped,
 * in the transcript line the call came from). Tool output loses Claude Code's reminders and read gutters.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { type ToolInput, toolInputOf, toolInputOfEvent } from "../../src/topology/tool-call-input.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { jsonl, parseFile, parseText, REPO, realFixture } from "../helpers/transcripts.ts";

const CLIENTS = join(REPO, "test", "fixtures", "clients");

function calls(events: readonly SessionEvent[]): Array<{ e: SessionEvent; input: ToolInput }> {
  const out: Array<{ e: SessionEvent; input: ToolInput }> = [];
  for (const e of events) {
    if (e.event_type !== "tool_call") continue;
    const input = toolInputOfEvent(e);
    expect(input, `${e.tool_name} @${e.ordinal} has typed input`).not.toBeNull();
    out.push({ e, input: input! });
  }
  return out;
}

/** The kind of each tool name's calls, one entry per name. */
function kinds(events: readonly SessionEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { e, input } of calls(events)) out[e.tool_name!] = input.kind;
  return out;
}

/** Every string the typed input holds, as it appears inside the JSON line the call was read from. */
function expectFromSource(events: readonly SessionEvent[], lineOf: (e: SessionEvent) => string): number {
  let checked = 0;
  for (const { e, input } of calls(events)) {
    if (input.kind === "shell" || input.kind === "other") continue;
    const line = lineOf(e);
    const values = [
      input.path,
      input.content,
      input.pattern,
      input.patch,
      ...(input.edits ?? []).flatMap((x) => [x.old, x.new]),
      ...(input.todos ?? []).map((t) => t.text),
    ].filter((v): v is string => typeof v === "string" && v !== "");
    for (const v of values) expect(line, `${e.tool_name} @${e.ordinal}`).toContain(JSON.stringify(v).slice(1, -1));
    checked += values.length;
  }
  return checked;
}

function sourceLines(path: string): (e: SessionEvent) => string {
  const lines = readFileSync(path, "utf8").split("\n");
  return (e) => lines[e.source_line - 1] ?? "";
}

describe("typed tool input on real transcripts", () => {
  it("Claude Code: Edit, Read, Bash, TodoWrite, Grep", () => {
    const path = realFixture("claude/episodic-memory__large-conversation.jsonl");
    const { events } = parseFile(path);
    expect(kinds(events)).toMatchObject({
      Edit: "edit",
      Read: "read",
      Bash: "shell",
      TodoWrite: "plan",
      Grep: "search",
      "mcp__private-journal__process_thoughts": "other",
    });
    expect(expectFromSource(events, sourceLines(path))).toBeGreaterThan(100);
    const todo = calls(events).find((c) => c.input.kind === "plan")!.input;
    expect(todo.todos!.length).toBeGreaterThan(0);
    for (const t of todo.todos!) expect(["pending", "in_progress", "completed"]).toContain(t.status);
    const bash = calls(events).find((c) => c.input.kind === "shell")!;
    expect(bash.input.command).toBe(bash.e.command);
  });

  it("Claude Code: Write keeps the whole content; partial reads are marked", () => {
    const path = realFixture("claude/codemie__session-624a4a58.jsonl");
    const { events } = parseFile(path);
    const write = calls(events).find((c) => c.e.tool_name === "Write")!;
    expect(write.input.kind).toBe("write");
    expect(write.input.content!.length).toBeGreaterThan(100);
    const reads = calls(events).filter((c) => c.input.kind === "read");
    expect(reads.some((c) => c.input.partial === true)).toBe(true);
    expect(reads.some((c) => c.input.partial === undefined)).toBe(true);
    expect(expectFromSource(events, sourceLines(path))).toBeGreaterThan(50);
  });

  it("Codex: shell commands and apply_patch", () => {
    const path = realFixture("codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl");
    const { events } = parseFile(path);
    expect(kinds(events)).toEqual({ shell_command: "shell", apply_patch: "patch" });
    const patch = calls(events).find((c) => c.input.kind === "patch")!.input;
    expect(patch.patch).toMatch(/^\*\*\* Begin Patch/);
    expect(expectFromSource(events, sourceLines(path))).toBeGreaterThan(0);
  });

  it("Codex: update_plan is the plan", () => {
    const input = toolInputOf("update_plan", {
      explanation: "x",
      plan: [
        { step: "Read the reader", status: "completed" },
        { step: "Write the test", status: "in_progress" },
      ],
    });
    expect(input).toEqual({
      kind: "plan",
      todos: [
        { text: "Read the reader", status: "completed" },
        { text: "Write the test", status: "in_progress" },
      ],
    });
  });

  it("pi: edit, read, write, bash, including a call cut off before its new text", () => {
    const path = realFixture("pi/pi-mono__large-session.jsonl");
    const { events } = parseFile(path);
    expect(kinds(events)).toEqual({ edit: "edit", read: "read", write: "write", bash: "shell" });
    expect(expectFromSource(events, sourceLines(path))).toBeGreaterThan(300);
    const cut = calls(events).filter((c) => c.input.kind === "edit" && c.input.edits?.[0]?.new === undefined);
    expect(cut.length).toBe(1);
    expect(cut[0]!.input.edits![0]!.old).toContain("mdHeading");
  });

  it.each([
    ["claude/2.1.332", { Edit: "edit", Write: "write", Read: "read", Bash: "shell" }],
    ["pi/0.87.1", { edit: "edit", write: "write", read: "read", bash: "shell" }],
    ["gemini/0.61.0", { replace: "edit", write_file: "write", read_file: "read", run_shell_command: "shell" }],
    ["qwen/0.24.4", { edit: "edit", write_file: "write", read_file: "read", run_shell_command: "shell" }],
    ["copilot/1.0.102", { edit: "edit", create: "write", view: "read", bash: "shell" }],
    ["opencode/1.18.33", { edit: "edit", write: "write", read: "read", bash: "shell" }],
    ["codex/0.169.0", { exec_command: "shell", apply_patch: "patch" }],
  ])("%s, written by the agent's current CLI", (dir, expected) => {
    const { events } = inspectPaths([join(CLIENTS, dir, "home")], REPO);
    expect(kinds(events)).toMatchObject(expected);
    const database = dir.startsWith("opencode");
    if (!database) {
      const byFile = new Map<string, (e: SessionEvent) => string>();
      const lineOf = (e: SessionEvent) => {
        if (!byFile.has(e.source_file)) byFile.set(e.source_file, sourceLines(e.source_file));
        return byFile.get(e.source_file)!(e);
      };
      expect(expectFromSource(events, lineOf)).toBeGreaterThan(0);
    }
    const edit = calls(events).find((c) => c.input.kind === "edit");
    if (edit) expect(edit.input.edits![0]!.new).toEqual(expect.any(String));
  });
});

describe("tool output as the tool produced it", () => {
  it("Kimi CLI: its own tool names, and StrReplaceFile's edit given as `edit: {old, new}`", () => {
    const { events } = inspectPaths([join(CLIENTS, "kimi", "1.51.0", "home")], REPO);
    expect(kinds(events)).toEqual({
      Shell: "shell",
      ReadFile: "read",
      StrReplaceFile: "edit",
      WriteFile: "write",
      Agent: "other",
    });
    const edits = calls(events).flatMap((c) => (c.input.kind === "edit" ? [c.input.edits] : []));
    expect(edits).toEqual([
      [{ old: "return subtract(a, b);", new: "return a + b;" }],
      [{ old: "return a - b;", new: "return a + b;" }],
    ]);
  });

  it("Hermes Agent: its `patch` tool given one replacement (mode `replace`) is an edit, not an envelope", () => {
    const { events } = inspectPaths([join(CLIENTS, "hermes", "0.19.0", "home")], REPO);
    expect(kinds(events)).toMatchObject({ terminal: "shell", read_file: "read", write_file: "write", patch: "edit" });
    const edits = calls(events).flatMap((c) => (c.input.kind === "edit" ? [c.input.edits] : []));
    expect(edits).toEqual([
      [{ old: "return subtract(a, b);", new: "return a + b;" }],
      [{ old: "return a - b;", new: "return a + b;" }],
    ]);
  });

  it("Claude Code reads lose their gutter and reminders; the count of reminders is kept", () => {
    const { events } = parseFile(realFixture("claude/codemie__session-624a4a58.jsonl"));
    const readIds = new Set(
      calls(events)
        .filter((c) => c.input.kind === "read")
        .map((c) => c.e.event_id),
    );
    const results = events.filter((e) => e.event_type === "tool_result" && readIds.has(e.parent_event_id ?? ""));
    expect(results.length).toBeGreaterThan(10);
    for (const r of results) {
      expect(r.text).not.toMatch(/^\s*\d+→/m);
      expect(r.text).not.toContain("<system-reminder>");
    }
    expect(results.some((r) => typeof r.meta["reminders"] === "number")).toBe(true);
    for (const e of events) if (e.event_type === "tool_result") expect(e.text).not.toContain("<system-reminder>");
  });

  it("a tab gutter goes from a read, not from a shell's output", () => {
    const text = jsonl(
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00Z", cwd: "/p" },
      {
        type: "message",
        id: "a1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01Z",
        message: {
          role: "assistant",
          content: [
            { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.tsv" } },
            { type: "toolCall", id: "c2", name: "bash", arguments: { command: "cut -f1 a.tsv" } },
          ],
        },
      },
      ...["c1", "c2"].map((id, i) => ({
        type: "message",
        id: `r${i}`,
        parentId: "a1",
        timestamp: "2026-01-01T00:00:02Z",
        message: {
          role: "toolResult",
          toolCallId: id,
          toolName: id === "c1" ? "read" : "bash",
          content: [{ type: "text", text: "1\tone\n2\ttwo\n3\tthree" }],
          isError: false,
        },
      })),
    );
    const { events } = parseText("/s/pi.jsonl", text);
    const results = events.filter((e) => e.event_type === "tool_result");
    expect(results.map((r) => r.text)).toEqual(["one\ntwo\nthree", "1\tone\n2\ttwo\n3\tthree"]);
  });
});
