/**
 * Deep Agents Code (`deepagents-code` on PyPI, LangChain; command `dcode`): an `openai:` model at the fake (chat
 * completions, `OPENAI_BASE_URL`), each prompt a non-interactive run (`-n`), the next ones resuming its thread (`-r`).
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
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
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
