/**
 * Deep Agents Code (`deepagents-code` on PyPI, LangChain; command `dcode`; `deepagents-cli` is now only its deployment
 * tool): an `openai:` model at the fake (LangChain's OpenAI client speaks the Responses API, `OPENAI_BASE_URL`), each
 * prompt a non-interactive run (`-n`, every command allowed with `-S all`: the shell is off without a list), the next
 * ones resuming its thread (`-r <id>`, the id it prints). Its summarization middleware compacts on its own once the
 * reported tokens fill the context (TASK-B).
 */
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { responses } from "../fake/responses.ts";
import { type AgentScript, PROMPTS, type Step } from "../fake/script.ts";
import type { ToolCallReply } from "../fake/types.ts";

/** Its subagent tool takes the task as its `description`, and the kind of subagent. */
function encode(step: Step): ToolCallReply | null {
  if (step.kind !== "subagent") return null;
  return { name: "task", args: { description: step.prompt, subagent_type: "general-purpose" } };
}

const script: AgentScript = {
  subagents: true,
  tools: { shell: ["execute"], subagent: ["task"] },
  compactDuring: "B",
  encode,
};

export const deepagents: AgentDriver = {
  name: "deepagents",
  pkg: "deepagents-code",
  bin: "dcode",
  registry: "pypi",
  protocols: [responses],
  script,
  async run(ctx) {
    const env = { OPENAI_BASE_URL: `${ctx.server.url}/v1`, OPENAI_API_KEY: "dummy", LANGSMITH_TRACING: "false" };
    const bin = join(ctx.binDir, "dcode");
    const args = ["-M", "openai:fake-coder", "-S", "all", "--no-mcp", "--no-tracing"];
    const first = await ctx.exec(bin, [...args, "-n", PROMPTS.A], { env });
    const id = /Thread:\s*([0-9a-f-]{36})/.exec(first.stdout)?.[1];
    if (!id) throw new Error("dcode printed no thread id");
    await ctx.exec(bin, [...args, "-r", id, "-n", PROMPTS.B], { env });
    await ctx.exec(bin, [...args, "-r", id, "-n", PROMPTS.C], { env });
  },
  // The profile's database (its write-ahead log folded in when recorded), and its owner locks beside it.
  keep: (rel) => /^\.deepagents\/\.state\/sessions\.db(-wal|-shm)?$/.test(rel),
  sidecar: (rel) => /^\.deepagents\/\.state\/sessions\.db\.owners\/[^/]+$/.test(rel),
};
