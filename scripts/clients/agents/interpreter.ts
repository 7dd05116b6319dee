/**
 * Open Interpreter (`open-interpreter` on PyPI, command `interpreter`): a LiteLLM model at the fake (chat
 * completions, `--api_base`), its one tool `execute(language, code)` as a function call, auto-run (`-y`). Its
 * terminal reads each prompt with `input()`, so the three prompts are piped to it, one a line, in one conversation;
 * the end of its input ends the run. Reading a file is Python, everything else a shell command (as mini-swe-agent's script has
 * it); it has no subagent.
 */
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS, type Step } from "../fake/script.ts";
import type { ToolCallReply } from "../fake/types.ts";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** An edit whose text is not there fails (grep exits 1) as an edit tool would. */
function encode(step: Step): ToolCallReply | null {
  const shell = (code: string) => ({ name: "execute", args: { language: "shell", code } });
  switch (step.kind) {
    case "shell":
      return shell(step.command);
    case "read":
      // Its other everyday language: Python, run in a Jupyter kernel.
      return {
        name: "execute",
        args: { language: "python", code: `print(open(${JSON.stringify(step.file)}).read())` },
      };
    case "edit":
      return shell(
        `grep -qF -- ${quote(step.old)} ${step.file} && sed -i ${quote(`s|${step.old}|${step.new}|`)} ${step.file}`,
      );
    case "write":
      return shell(`printf '%s' ${quote(step.content)} > ${step.file}`);
    default:
      return null;
  }
}

export const interpreter: AgentDriver = {
  name: "interpreter",
  pkg: "open-interpreter",
  bin: "interpreter",
  registry: "pypi",
  // tiktoken 0.7, which it pins, has no wheel past Python 3.12.
  python: "3.11",
  versions: (v) => /^\d+\.\d+\.\d+$/.test(v),
  protocols: [chat],
  script: { subagents: false, encode },
  async run(ctx) {
    const env = {
      DISABLE_TELEMETRY: "true",
      // LiteLLM's price list from the package, not from the network.
      LITELLM_LOCAL_MODEL_COST_MAP: "True",
      SHELL: "/bin/bash",
    };
    const args = [
      "-y",
      "--model",
      "openai/fake-coder",
      "--api_base",
      `${ctx.server.url}/v1`,
      "--api_key",
      "dummy",
      "--llm_supports_functions",
      "--context_window",
      "100000",
      "--max_tokens",
      "4096",
      "--disable_telemetry",
      "--plain",
    ];
    await ctx.exec(join(ctx.binDir, "interpreter"), args, {
      env,
      input: `${PROMPTS.A}\n${PROMPTS.B}\n${PROMPTS.C}\n`,
      check: false,
    });
  },
  keep: (rel) => /^\.config\/open-interpreter\/conversations\/[^/]+\.json$/.test(rel),
};
