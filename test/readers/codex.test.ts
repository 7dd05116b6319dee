import { describe, expect, it } from "vitest";
import { byTool, count, jsonl, parseText } from "../helpers/transcripts.ts";

const ID = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
const env = (type: string, payload: object, timestamp: string | null = "2026-01-01T00:00:00Z") =>
  timestamp ? { timestamp, type, payload } : { type, payload };
const meta = (extra: object = {}) =>
  env("session_meta", {
    id: ID,
    cwd: "/w",
    originator: "codex_cli_rs",
    cli_version: "0.70.0",
    source: "cli",
    git: { branch: "feat" },
    ...extra,
  });
const FILE = `/h/.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-${ID}.jsonl`;

describe("Codex reader", () => {
  it("a prompt written twice (response_item + event_msg) is one typed prompt; injected context is not", () => {
    const p = parseText(
      FILE,
      jsonl(
        meta(),
        env("response_item", {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>\n<cwd>/w</cwd></environment_context>" }],
        }),
        env("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "add a test" }] }),
        env("event_msg", { type: "user_message", message: "add a test", images: [] }),
        env("event_msg", { type: "agent_message", message: "Adding it." }),
        env("response_item", {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "Adding it." }],
          phase: "final_answer",
        }),
      ),
    );
    expect(p.events.filter((e) => e.event_type === "user_message").map((e) => [e.role, e.text])).toEqual([
      ["user", "add a test"],
    ]);
    // The injected context is kept, as harness output rather than the user's words.
    expect(
      p.events.filter((e) => e.meta["harness"] === true).map((e) => [e.event_type, e.role, e.text.slice(0, 21)]),
    ).toEqual([["tool_result", "system", "<environment_context>"]]);
    expect(p.events.filter((e) => e.event_type === "assistant_message").map((e) => [e.text, e.meta["phase"]])).toEqual([
      ["Adding it.", "final_answer"],
    ]);
  });

  it("shell calls: exit codes from every output format", () => {
    const call = (id: string, name: string, args: object) =>
      env("response_item", { type: "function_call", name, arguments: JSON.stringify(args), call_id: id });
    const out = (id: string, output: unknown) =>
      env("response_item", { type: "function_call_output", call_id: id, output });
    const p = parseText(
      FILE,
      jsonl(
        meta(),
        call("c1", "shell", { command: ["bash", "-lc", "npm test"] }),
        out(
          "c1",
          JSON.stringify({
            output: "Tests  1 failed | 2 passed (3)",
            metadata: { exit_code: 1, duration_seconds: 1.2 },
          }),
        ),
        call("c2", "shell_command", { command: "cargo build", workdir: "/w" }),
        out("c2", "Exit code: 0\nWall time: 3 seconds\nOutput:\n   Compiling x\n"),
        call("c3", "exec_command", { cmd: "pytest" }),
        env("event_msg", { type: "exec_command_end", call_id: "c3", exit_code: 2 }),
        out("c3", [{ type: "input_text", text: "==== 1 failed, 3 passed in 0.1s ====" }]),
        call("c4", "exec_command", { cmd: "go test ./..." }),
        out("c4", "Chunk ID: 1\nWall time: 0.5 seconds\nProcess exited with code 0\nOutput:\nok  \tx/y\t0.01s"),
      ),
    );
    const results = p.events.filter((e) => e.event_type === "tool_result");
    expect(results.map((e) => [e.status, e.meta["exit_code"]])).toEqual([
      ["error", 1],
      ["ok", 0],
      ["error", 2],
      ["ok", 0],
    ]);
    expect(p.events.filter((e) => e.event_type === "test_result").map((e) => [e.command, e.status])).toEqual([
      ["npm test", "fail"],
      ["cargo build", "pass"],
      ["pytest", "fail"],
      ["go test ./...", "pass"],
    ]);
    expect(results[1]!.text).toBe("   Compiling x\n");
  });

  it("apply_patch, local_shell_call and web_search_call", () => {
    const p = parseText(
      FILE,
      jsonl(
        meta(),
        env("response_item", {
          type: "custom_tool_call",
          call_id: "p1",
          name: "apply_patch",
          input: "*** Begin Patch\n*** Update File: src/a.ts\n-x\n+y\n*** End Patch",
        }),
        env("response_item", {
          type: "custom_tool_call_output",
          call_id: "p1",
          output: JSON.stringify({ output: "Success", metadata: { exit_code: 0 } }),
        }),
        env("response_item", {
          type: "local_shell_call",
          call_id: "l1",
          status: "completed",
          action: { type: "exec", command: ["rm", "old.txt"], working_directory: "/w" },
        }),
        env("response_item", { type: "function_call_output", call_id: "l1", output: "" }),
        env("response_item", {
          type: "web_search_call",
          status: "completed",
          action: { type: "search", query: "vitest coverage" },
        }),
      ),
    );
    expect(byTool(p.events)).toEqual({ apply_patch: 1, local_shell: 1, web_search: 1 });
    expect(p.events.filter((e) => e.event_type === "file_action").map((e) => [e.meta["op"], e.file_path])).toEqual([
      ["edit", "/w/src/a.ts"],
      ["delete", "/w/old.txt"],
    ]);
  });

  it("forked rollouts: the first session_meta is the session, later ones are the parent's", () => {
    const p = parseText(
      FILE,
      jsonl(
        meta({ forked_from_id: "019b0000-0000-7000-8000-000000000001" }),
        env("session_meta", { id: "019b0000-0000-7000-8000-000000000001", cwd: "/w" }),
      ),
    );
    expect(p.sessions).toHaveLength(1);
    expect(p.sessions[0]).toMatchObject({
      session_id: ID,
      kind: "fork",
      parent_session_id: "019b0000-0000-7000-8000-000000000001",
      meta: { replayed_parent: "019b0000-0000-7000-8000-000000000001" },
    });
  });

  it("exec and subagent sessions are flagged", () => {
    expect(parseText(FILE, jsonl(meta({ source: "exec", originator: "codex_exec" }))).sessions[0]!.kind).toBe("exec");
    const sub = parseText(
      FILE,
      jsonl(meta({ source: { subagent: "review" }, thread_source: "subagent", parent_thread_id: "019b-parent" })),
    ).sessions[0]!;
    expect(sub).toMatchObject({ kind: "subagent", parent_session_id: "019b-parent" });
  });

  it("compaction: `compacted` and `context_compacted` are one resume point", () => {
    const p = parseText(
      FILE,
      jsonl(
        meta(),
        env("event_msg", { type: "context_compacted" }),
        env("compacted", { message: "Summary: did X, next Y", window_number: 2 }),
      ),
    );
    expect(
      p.events.filter((e) => e.event_type === "resume_point").map((e) => [e.text, e.meta["window_number"]]),
    ).toEqual([["Summary: did X, next Y", 2]]);
  });

  it("early Rust layout: bare meta, bare items, record_type lines, no timestamps", () => {
    const p = parseText(
      "/h/.codex/sessions/rollout-2025-06-01-abc.jsonl",
      jsonl(
        { id: "legacy-1", timestamp: "2025-06-01T00:00:00Z", instructions: null, git: { branch: "main" } },
        { record_type: "state" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "list files" }] },
        { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["ls"] }), call_id: "c1" },
        {
          type: "function_call_output",
          call_id: "c1",
          output: JSON.stringify({ output: "a\nb", metadata: { exit_code: 0 } }),
        },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Two files." }] },
      ),
    );
    expect(p.problems).toEqual([]);
    expect(p.sessions[0]).toMatchObject({ session_id: "legacy-1", git_branch: "main" });
    expect(p.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text)).toEqual([
      "list files",
    ]);
    expect(count(p.events, "command")).toBe(1);
  });

  it("TypeScript-era whole-file .json rollout, even split across parse calls", () => {
    const doc = JSON.stringify(
      {
        session: { id: "ts-era", timestamp: "2025-04-01T00:00:00Z", instructions: "" },
        items: [
          { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] },
        ],
      },
      null,
      2,
    );
    const lines = doc.split("\n").length;
    const whole = parseText("/h/.codex/sessions/rollout-2025-04-01-ts-era.json", `${doc}\n`);
    const split = parseText("/h/.codex/sessions/rollout-2025-04-01-ts-era.json", `${doc}\n`, [Math.floor(lines / 2)]);
    expect(whole.sessions[0]!.session_id).toBe("ts-era");
    expect(whole.events.map((e) => e.text)).toEqual(["hello", "hi"]);
    expect(JSON.stringify(split)).toBe(JSON.stringify(whole));
  });

  it("unknown items and events are problems once per type, their text kept in the session's meta", () => {
    const beam = env("event_msg", { type: "hologram_beam", message: "beamed" });
    const p = parseText(FILE, jsonl(meta(), beam, env("mystery", { text: "??" }), beam, beam));
    expect(p.problems.map((x) => x.reason)).toEqual([
      "unknown record type 'event_msg/hologram_beam'",
      "unknown record type 'mystery'",
    ]);
    expect(p.events).toEqual([]);
    expect(p.sessions[0]!.meta["unknown_records"]).toEqual({
      "event_msg/hologram_beam": { line: 2, text: "beamed" },
      mystery: { line: 3, text: "??" },
    });
  });
});
