/**
 * Codex CLI (`@openai/codex`, a native binary in the npm package): a custom `responses` provider at the fake,
 * `codex exec` then `codex exec resume --last`, and an automatic compaction forced by a low
 * `model_auto_compact_token_limit` and one reply that reports a full context. The model slug must be one Codex
 * knows, or it offers no `apply_patch`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { responses } from "../fake/responses.ts";
import { PROMPTS, type Step } from "../fake/script.ts";
import type { Conversation, ToolCallReply } from "../fake/types.ts";

function patchFor(step: Step, dir: string): string | null {
  if (step.kind === "edit")
    return `*** Begin Patch\n*** Update File: ${join(dir, step.file)}\n@@\n-  ${step.old}\n+  ${step.new}\n*** End Patch\n`;
  if (step.kind === "write") {
    const body = step.content
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `+${l}`)
      .join("\n");
    return `*** Begin Patch\n*** Add File: ${join(dir, step.file)}\n${body}\n*** End Patch\n`;
  }
  return null;
}

function encode(step: Step, conv: Conversation, dir: string): ToolCallReply | null {
  const patch = patchFor(step, dir);
  if (patch === null) return null;
  const tool = conv.tools.find((t) => t.name === "apply_patch");
  if (!tool) return null;
  return { name: "apply_patch", args: tool.freeform ? patch : { input: patch } };
}

export const codex: AgentDriver = {
  name: "codex",
  pkg: "@openai/codex",
  bin: "codex",
  protocols: [responses],
  script: {
    subagents: true,
    compactAfter: "B",
    encode: (step, conv, dir) => encode(step, conv, dir),
  },
  extra: (_method, path) => (path.startsWith("/v1/models") ? { object: "list", data: [] } : null),
  async run(ctx) {
    const { bin, env, flags } = setUp(ctx);
    await ctx.exec(bin, ["exec", ...flags, PROMPTS.A], { env });
    await ctx.exec(bin, ["exec", "resume", "--last", ...flags, PROMPTS.B], { env });
    await ctx.exec(bin, ["exec", "resume", "--last", ...flags, PROMPTS.C], { env });
  },
  async once(ctx, prompt) {
    const { bin, env, flags } = setUp(ctx);
    await ctx.exec(bin, ["exec", ...flags, prompt], { env });
  },
  keep: (rel) => /^\.codex\/(sessions|archived_sessions)\/.*\.jsonl$/.test(rel),
};

/** Codex's config pointing at the fake; the binary, its environment and the flags every run takes. */
function setUp(ctx: RunContext): { bin: string; env: Record<string, string>; flags: string[] } {
  const codexHome = join(ctx.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      'model = "gpt-5.5"',
      'model_provider = "fake"',
      "model_auto_compact_token_limit = 2500",
      "",
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${ctx.server.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_API_KEY"',
      "",
    ].join("\n"),
  );
  return {
    bin: join(ctx.binDir, "codex"),
    env: { CODEX_HOME: codexHome, FAKE_API_KEY: "dummy" },
    flags: ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"],
  };
}
