/**
 * Auggie (`@augmentcode/auggie`): Augment's own service faked at the tenant URL of the OAuth session the CLI takes
 * from `AUGMENT_SESSION_AUTH` (the same JSON as `~/.augment/session.json`); `/get-models` must answer, or the CLI
 * runs without feature flags and sends an empty first message. The flags the fake sends turn on the sub-agent tools
 * (`sub-agent-<name>`), history summarization (a prompt, and a trigger the reported token usage crosses: it
 * summarizes before TASK-C) and the recording of each sub-agent's run in its parent's session file (without that
 * flag, the service's choice, a sub-agent's turns are written nowhere). `auggie --print` plays the first prompt,
 * `--continue` the second, `--resume <id>` the third.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { augment } from "../fake/augment.ts";
import { PROMPTS, type Step } from "../fake/script.ts";
import type { Conversation, ToolCallReply } from "../fake/types.ts";

/** The prompt Auggie sends to have its history summarized (the service's `history_summary_params.prompt`). */
const SUMMARY_PROMPT = "Create a detailed summary of the conversation so far, for the agent to continue from.";

/** One sub-agent tool per configured sub-agent; the general one can run a shell command. */
const SUBAGENT = "sub-agent-general-purpose";

const FEATURE_FLAGS = {
  beachhead_enable_sub_agent_tool: true,
  cli_record_summarizations_and_subagents: true,
  history_summary_min_version: "0.0.0",
  history_summary_params: JSON.stringify({
    prompt: SUMMARY_PROMPT,
    history_tail_size_tokens_to_exclude: 2000,
    input_budget_trigger_ratio: 0.5,
  }),
};

/** The line `text` starts on in the project's `file` (the editor wants it), 1 when it is not there. */
function lineOf(dir: string, file: string, text: string): number {
  const body = readFileSync(join(dir, file), "utf8");
  const at = body.indexOf(text);
  return at === -1 ? 1 : body.slice(0, at).split("\n").length;
}

function encode(step: Step, conv: Conversation, dir: string): ToolCallReply | null {
  switch (step.kind) {
    case "shell":
      return { name: "launch-process", args: { command: step.command, wait: true, max_wait_seconds: 60, cwd: dir } };
    case "read":
      return { name: "view", args: { type: "file", path: step.file } };
    case "edit": {
      const line = lineOf(dir, step.file, step.old);
      const entry = {
        old_str: step.old,
        new_str: step.new,
        old_str_start_line_number: line,
        old_str_end_line_number: line,
      };
      return {
        name: "str-replace-editor",
        args: { command: "str_replace", path: step.file, str_replace_entries: [entry] },
      };
    }
    case "write":
      return { name: "save-file", args: { path: step.file, file_content: step.content } };
    case "subagent": {
      const tool = conv.tools.find((t) => t.name === SUBAGENT);
      return tool ? { name: tool.name, args: { action: "run", name: "count-lines", instruction: step.prompt } } : null;
    }
    default:
      return null;
  }
}

export const auggie: AgentDriver = {
  name: "auggie",
  pkg: "@augmentcode/auggie",
  bin: "auggie",
  protocols: [augment],
  script: { subagents: true, tools: { subagent: [SUBAGENT] }, compactAfter: "B", encode },
  extra: (_method, path) => {
    if (path === "/get-models")
      return {
        default_model: "fake-coder",
        models: [{ name: "fake-coder", suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 }],
        feature_flags: FEATURE_FLAGS,
        user_tier: "PROFESSIONAL_TIER",
        user: { id: "fake-user", email: "fake@example.com" },
      };
    // No remote tools and no MCP servers configured on the service's side.
    if (path === "/agents/list-remote-tools") return { tools: [] };
    if (path.startsWith("/settings/get-mcp-")) return { configs: [] };
    return null;
  },
  async run(ctx) {
    const session = { accessToken: "dummy", tenantURL: `${ctx.server.url}/`, scopes: ["email"] };
    const env = { AUGMENT_SESSION_AUTH: JSON.stringify(session), AUGMENT_DISABLE_AUTO_UPDATE: "1" };
    const bin = join(ctx.binDir, "auggie");
    await ctx.exec(bin, ["--print", PROMPTS.A], { env });
    await ctx.exec(bin, ["--print", "--continue", PROMPTS.B], { env });
    const sessions = join(ctx.home, ".augment", "sessions");
    const main = readdirSync(sessions).find((f) => readFileSync(join(sessions, f), "utf8").includes("TASK-A:"));
    if (!main) throw new Error("auggie wrote no session holding the first prompt");
    await ctx.exec(bin, ["--print", "--resume", main.replace(/\.json$/, ""), PROMPTS.C], { env });
  },
  keep: (rel) => /^\.augment\/sessions\/[^/]+\.json$/.test(rel),
};
