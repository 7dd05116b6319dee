/**
 * Roo Code on task folders Roo itself wrote, committed as test data by roo-state-manager
 * (test/fixtures/editors/roo/roo-state-manager, SOURCE.md). What the files hold is counted here with plain
 * `JSON.parse` and regular expressions, not with cairn's readers; cairn's reading must give the same tasks, prompts,
 * tool calls, failed results and condenses, with no problem, find them in a fresh HOME by itself, and brief them.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { defaultRoots, isTranscriptFile, rootsWithoutOverrides } from "../../src/readers/roots.ts";
import { cairn } from "../helpers/cli.ts";
import { byTool, REPO } from "../helpers/transcripts.ts";

const HOME = join(REPO, "test", "fixtures", "editors", "roo", "roo-state-manager", "home");
const TASKS = join(HOME, ".config", "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "tasks");
const ids = readdirSync(TASKS).sort();
const conversations = ids.map((id) => join(TASKS, id, "api_conversation_history.json"));

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

// Roo's tool names as its XML parser knows them; a call opened in a reply's text runs to its closing tag or the end.
const TOOLS =
  "read_file|write_to_file|apply_diff|insert_content|search_and_replace|search_files|list_files|list_code_definition_names|execute_command|browser_action|use_mcp_tool|access_mcp_resource|ask_followup_question|attempt_completion|switch_mode|new_task|fetch_instructions|update_todo_list|codebase_search";
const CALL = new RegExp(`<(${TOOLS})>([\\s\\S]*?)(</\\1>|$)`, "g");

interface Truth {
  sessions: string[];
  prompts: string[];
  toolCalls: Record<string, number>;
  failed: number;
  compactions: number;
}

type Block = { type: string; text?: string };
type Message = { role: string; content: string | Block[]; isSummary?: boolean };

/** Each task as its two files say. */
function truth(): Truth {
  const out: Truth = { sessions: ids, prompts: [], toolCalls: {}, failed: 0, compactions: 0 };
  for (const id of ids) {
    const api = JSON.parse(readFileSync(join(TASKS, id, "api_conversation_history.json"), "utf8")) as Message[];
    const ui = JSON.parse(readFileSync(join(TASKS, id, "ui_messages.json"), "utf8")) as Array<{ say?: string }>;
    out.compactions += ui.filter((m) => m.say === "condense_context").length;
    for (const m of api) {
      if (typeof m.content === "string") continue; // the condense summary
      const texts = m.content.filter((b) => b.type === "text").map((b) => b.text ?? "");
      if (m.role === "assistant") {
        for (const t of texts) for (const c of t.matchAll(CALL)) out.toolCalls[c[1]!] = (out.toolCalls[c[1]!] ?? 0) + 1;
        continue;
      }
      let result = "";
      for (const t of texts) {
        const header = /^\[(\w+)[^\]]*?\] Result:/.exec(t);
        if (header && !/^\[new_task completed\]/.test(t)) result = header[1]!;
        else if (t.startsWith("<environment_details>")) result = "";
        if (t.startsWith("<task>")) out.prompts.push(/^<task>\n?([\s\S]*?)\n?<\/task>/.exec(t)![1]!.trim());
        if (/^\s*New instructions for task continuation:/.test(t))
          out.prompts.push(/<user_message>\n?([\s\S]*?)\n?<\/user_message>/.exec(t)![1]!.trim());
        if (result === "attempt_completion" || result === "ask_followup_question")
          for (const f of t.matchAll(/<(feedback|answer)>\n?([\s\S]*?)\n?<\/\1>/g)) out.prompts.push(f[2]!.trim());
        if (
          result !== "" &&
          /^The tool execution failed|Command execution was not successful|^The user denied|Exit code: [1-9]/.test(t)
        )
          out.failed++;
      }
    }
  }
  return out;
}

function observed(): Truth & { problems: unknown[] } {
  const r = inspectPaths(conversations, REPO);
  const ev = r.events;
  return {
    problems: r.problems,
    sessions: r.sessions.map((s) => s.session_id).sort(),
    prompts: ev.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text),
    toolCalls: byTool(ev),
    failed: ev.filter((e) => e.event_type === "tool_result" && e.status === "error").length,
    compactions: ev.filter((e) => e.event_type === "resume_point" && e.meta["kind"] === "compaction").length,
  };
}

describe("Roo Code's task folders", () => {
  const expected = truth();

  it("give the tasks, prompts, tool calls, failed results and condenses the files hold, with no problem", () => {
    const seen = observed();
    expect(seen.problems).toEqual([]);
    const { problems: _, ...rest } = seen;
    expect(rest).toEqual({ ...expected, prompts: expect.arrayContaining(expected.prompts) });
    expect(seen.prompts).toHaveLength(expected.prompts.length);
    expect(expected.failed).toBe(1);
    expect(expected.compactions).toBe(3);
    expect(expected.toolCalls["execute_command"]).toBe(5);
  });

  it("pair each result with its call, and date the task from the panel's first entry", () => {
    const r = inspectPaths(conversations, REPO);
    const failed = r.events.find((e) => e.event_type === "tool_result" && e.status === "error")!;
    const call = r.events.find((e) => e.event_id === failed.parent_event_id)!;
    expect(call.tool_name).toBe("use_mcp_tool");
    // The first command's call was condensed away before the conversation was saved: its result stands alone.
    const commands = r.events.filter((e) => e.event_type === "tool_result" && e.tool_name === "execute_command");
    expect(commands.map((e) => e.meta["exit_code"] ?? null)).toEqual([0, 0, 0, 0]);
    expect(r.sessions.find((s) => s.session_id === ids[0])).toMatchObject({
      cwd: "d:/dev/roo-extensions",
      started_at: "2025-08-19T20:28:52.197Z",
    });
  });

  it("are read from the conversation file only: the panel's list and metadata are not transcripts", () => {
    expect(isTranscriptFile("api_conversation_history.json")).toBe(true);
    expect(isTranscriptFile("ui_messages.json")).toBe(false);
    expect(isTranscriptFile("task_metadata.json")).toBe(false);
    expect(isTranscriptFile("history_item.json")).toBe(false);
  });
});

describe("cairn finds Roo Code's tasks by itself", () => {
  const env = (home: string) => {
    const out: Record<string, string> = { HOME: home, CAIRN_DB: join(home, "cairn.db") };
    for (const name of rootsWithoutOverrides("~").overrides) out[name] = "";
    return out;
  };

  it("in a fresh HOME, briefs what failed, and `cairn doctor` has nothing to say of it", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-roo-home-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    expect(cairn(["index", "--json"], { env: env(home) }).code).toBe(0);
    const listed = cairn(["sessions", "--all", "--json", "--provider", "roo"], { env: env(home) });
    expect((JSON.parse(listed.stdout) as Array<{ session_id: string }>).map((s) => s.session_id).sort()).toEqual(ids);
    const brief = cairn(["resume", "bc93a6f7"], { env: env(home) });
    expect(brief.code, brief.stderr).toBe(0);
    expect(brief.stdout).toMatch(/### Failures[\s\S]*`use_mcp_tool` ×1 .*not allowed in orchestrator mode/);
    const doctor = JSON.parse(cairn(["doctor", "--json"], { env: env(home) }).stdout) as {
      agents: Array<{ provider: string; findings: string[]; sessions: number }>;
    };
    expect(doctor.agents.find((a) => a.provider === "roo")).toMatchObject({ findings: [], sessions: 3 });
  });
});

describe("Roo Code's folders", () => {
  it("are its task folder under each editor's user data, on Linux, macOS and a remote host", () => {
    const dirs = defaultRoots({ XDG_CONFIG_HOME: "/x" }, "/home/u")
      .filter((r) => r.provider === "roo")
      .map((r) => r.dir);
    expect(dirs).toContain("/x/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks");
    expect(dirs).toContain(
      "/home/u/Library/Application Support/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
    );
    expect(dirs).toContain("/home/u/.vscode-server/data/User/globalStorage/rooveterinaryinc.roo-cline/tasks");
  });
});
