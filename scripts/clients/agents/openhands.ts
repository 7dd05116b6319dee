/**
 * OpenHands CLI (`openhands` on PyPI, Python 3.12 only): LiteLLM at the fake (chat completions) through the `LLM_*`
 * variables its `--override-with-envs` applies; `--headless -t …` for the first task, `--resume <id>` for the next.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS, type Step } from "../fake/script.ts";
import type { ToolCallReply } from "../fake/types.ts";

/** Every call names its risk; the file editor's `command` says whether it views, creates or replaces. */
function encode(step: Step, _conv: unknown, dir: string): ToolCallReply | null {
  const risk = { security_risk: "LOW" };
  switch (step.kind) {
    case "shell":
      return { name: "terminal", args: { command: step.command, ...risk } };
    case "read":
      return { name: "file_editor", args: { command: "view", path: join(dir, step.file), ...risk } };
    case "edit":
      return {
        name: "file_editor",
        args: { command: "str_replace", path: join(dir, step.file), old_str: step.old, new_str: step.new, ...risk },
      };
    case "write":
      return {
        name: "file_editor",
        args: { command: "create", path: join(dir, step.file), file_text: step.content, ...risk },
      };
    case "subagent":
      return { name: "task", args: { description: step.description, prompt: step.prompt, ...risk } };
    default:
      return null;
  }
}

function env(ctx: RunContext): Record<string, string> {
  return {
    LLM_MODEL: "openai/fake-coder",
    LLM_BASE_URL: `${ctx.server.url}/v1`,
    LLM_API_KEY: "dummy",
    LITELLM_LOCAL_MODEL_COST_MAP: "True",
    OPENHANDS_SUPPRESS_BANNER: "1",
  };
}

export const openhands: AgentDriver = {
  name: "openhands",
  pkg: "openhands",
  registry: "pypi",
  python: "3.12",
  bin: "openhands",
  protocols: [chat],
  script: { subagents: true, tools: { subagent: ["task"] }, encode },
  async run(ctx) {
    const bin = join(ctx.binDir, "openhands");
    const say = (...args: string[]) =>
      ctx.exec(bin, ["--headless", "--override-with-envs", ...args], { env: env(ctx), timeoutMs: 300_000 });
    await say("-t", PROMPTS.A);
    const ids = readdirSync(join(ctx.home, ".openhands", "conversations"));
    const id = ids[0]!;
    await say("--resume", id, "-t", PROMPTS.B);
    await say("--resume", id, "-t", PROMPTS.C);
  },
  keep: (rel) => /^\.openhands\/conversations\//.test(rel),
};
