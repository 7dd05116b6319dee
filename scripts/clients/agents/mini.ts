/**
 * mini-swe-agent (`mini-swe-agent` on PyPI, command `mini`): a LiteLLM model at the fake (chat completions); one
 * tool, `bash`, so edits and new files are shell commands, and the agent ends a task by running `echo
 * COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`. `mini -y -t …` runs the first task; when the agent wants to finish it asks
 * for a new task on its terminal, which carries the next prompts in the same run.
 */
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS, playScript, type Step } from "../fake/script.ts";
import type { Conversation, Reply, ToolCallReply } from "../fake/types.ts";

const SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Everything is a shell command; an edit whose text is not there fails (grep exits 1) as an edit tool would. */
function encode(step: Step): ToolCallReply | null {
  const bash = (command: string) => ({ name: "bash", args: { command } });
  switch (step.kind) {
    case "read":
      return bash(`cat ${step.file}`);
    case "edit":
      return bash(
        `grep -qF -- ${quote(step.old)} ${step.file} && sed -i ${quote(`s|${step.old}|${step.new}|`)} ${step.file}`,
      );
    case "write":
      return bash(`printf '%s' ${quote(step.content)} > ${step.file}`);
    default:
      return null;
  }
}

/** The project folder of the current run, for the brain's replies (set when the run starts). */
let projectDir = "";

const script = { subagents: false, encode };

/** A reply in words ends the task the only way mini knows: the words, and the submit command. */
function side(conv: Conversation, path: string, body: unknown): Reply | null {
  const reply = playScript(conv, script, projectDir, path, body);
  return reply.call ? reply : { ...reply, call: { name: "bash", args: { command: SUBMIT } } };
}

export const mini: AgentDriver = {
  name: "mini",
  pkg: "mini-swe-agent",
  bin: "mini",
  registry: "pypi",
  protocols: [chat],
  script: { ...script, side },
  async run(ctx) {
    projectDir = ctx.dir;
    const env = {
      MSWEA_CONFIGURED: "true",
      MSWEA_COST_TRACKING: "ignore_errors",
      OPENAI_API_KEY: "dummy",
      // LiteLLM's price list from the package, not from the network.
      LITELLM_LOCAL_MODEL_COST_MAP: "True",
    };
    const args = [
      "-m",
      "openai/fake-coder",
      "-c",
      "mini.yaml",
      "-c",
      `model.model_kwargs.api_base=${ctx.server.url}/v1`,
      "-y",
      "-t",
      PROMPTS.A,
    ];
    await ctx.exec(join(ctx.binDir, "mini"), args, { env, input: `${PROMPTS.B}\n${PROMPTS.C}\n\n` });
  },
  keep: (rel) => /^\.config\/mini-swe-agent\/.*\.traj\.json$/.test(rel),
};
