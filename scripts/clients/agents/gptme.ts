/**
 * gptme (`gptme` on PyPI): its `local` provider at the fake (chat completions, `OPENAI_BASE_URL`), native tool calls
 * (`--tool-format tool`) with its subagent and read tools added, run non-interactively (`-n`) with the three prompts chained by
 * gptme's own `-` separator, so one conversation carries them all, with its `/compact` command between TASK-B and
 * TASK-C. The subagent is a function of its `ipython` tool, run in a thread and waited for.
 */
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { type AgentScript, PROMPTS, type Step, SUMMARY } from "../fake/script.ts";
import type { Conversation, Reply, ToolCallReply } from "../fake/types.ts";

/** gptme edits with a patch of conflict-marker blocks; a block whose original text is not there fails the call. */
function encode(step: Step): ToolCallReply | null {
  // A subagent is a Python function its `ipython` tool offers: started in this process, then waited for.
  if (step.kind === "subagent") {
    const code = `subagent("counter", ${JSON.stringify(step.prompt)}, use_subprocess=False)\nprint(subagent_wait("counter", timeout=120))`;
    return { name: "ipython", args: { code } };
  }
  if (step.kind !== "edit") return null;
  const patch = `<<<<<<< ORIGINAL\n${step.old}\n=======\n${step.new}\n>>>>>>> UPDATED\n`;
  return { name: "patch", args: { path: step.file, patch } };
}

const script: AgentScript = { subagents: true, tools: { write: ["save"], subagent: ["ipython"] }, encode };

/**
 * The requests that are not the scripted conversation: the checkpoint `/compact` asks for (answered with the
 * summary), and gptme's nudge after a reply in words in a run without a person, which the `complete` tool ends.
 */
function side(conv: Conversation): Reply | null {
  const last = [...conv.msgs].reverse().find((m) => m.role === "user")?.text ?? "";
  if (/^Context budget has been reached/.test(last)) return { text: SUMMARY };
  if (/^<system>No tool call detected/.test(last)) return { call: { name: "complete", args: {} } };
  return null;
}

const SIDECAR = /^\.local\/share\/gptme\/logs\/[^/]+\/(events|lossless|compaction)\.jsonl$/;

export const gptme: AgentDriver = {
  name: "gptme",
  pkg: "gptme",
  bin: "gptme",
  registry: "pypi",
  protocols: [chat],
  script: { ...script, side },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    // No tokenizer download: gptme counts tokens by characters.
    const env = { OPENAI_BASE_URL: `${ctx.server.url}/v1`, OPENAI_API_KEY: "dummy", GPTME_TIKTOKEN_TIMEOUT: "0" };
    const args = ["-n", "--model", "local/fake-coder", "--tool-format", "tool", "-t", "+subagent", "-t", "+read"];
    await ctx.exec(`${ctx.binDir}/gptme`, [...args, PROMPTS.A, "-", PROMPTS.B, "-", "/compact", "-", PROMPTS.C], {
      env,
    });
  },
  // Each conversation, the files beside it the reader reads (its title, a subagent's parent), and three files
  // that are not transcripts although written in lines: the event log, the log before the compaction, and the
  // compactions' statistics.
  keep: (rel) =>
    /^\.local\/share\/gptme\/logs\/[^/]+\/(conversation\.jsonl|config\.toml|subagent-meta\.json)$/.test(rel),
  sidecar: (rel) => SIDECAR.test(rel),
};
