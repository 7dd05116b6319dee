/**
 * Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork): OpenAI-compatible auth from OPENAI_API_KEY,
 * OPENAI_BASE_URL and OPENAI_MODEL; `-p … --yolo`, then `--continue`. It compresses on its own when a reply
 * reports a nearly full context (`-p /compress` right after says "not beneficial" and exits 1).
 */
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const qwen: AgentDriver = {
  name: "qwen",
  pkg: "@qwen-code/qwen-code",
  bin: "qwen",
  protocols: [chat],
  script: { subagents: true, compactDuring: "B" },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "qwen3-coder-plus" }] } : null,
  async run(ctx) {
    const env = {
      OPENAI_API_KEY: "dummy",
      OPENAI_BASE_URL: `${ctx.server.url}/v1`,
      OPENAI_MODEL: "qwen3-coder-plus",
      QWEN_CODE_TRUST_WORKSPACE: "true",
    };
    const bin = join(ctx.binDir, "qwen");
    await ctx.exec(bin, ["-p", PROMPTS.A, "--yolo"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.B, "--yolo", "--continue"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.C, "--yolo", "--continue"], { env });
  },
  keep: (rel) => /^\.qwen\/(projects|tmp)\/.*\.jsonl?$/.test(rel),
  // Its usage log: one line per session with a `sessionId`, not a transcript.
  sidecar: (rel) => rel === ".qwen/usage_record.jsonl",
};
