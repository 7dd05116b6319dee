/**
 * GitHub Copilot CLI (`@github/copilot`), offline with no GitHub account: COPILOT_OFFLINE, a chat-completions
 * provider at the fake and a well-known model id; `-p … --allow-all`, then `--continue`; `-p /compact` compacts.
 */
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const copilot: AgentDriver = {
  name: "copilot",
  pkg: "@github/copilot",
  bin: "copilot",
  protocols: [chat],
  script: { subagents: true },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "claude-sonnet-4.5", object: "model" }] } : null,
  async run(ctx) {
    const env = {
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${ctx.server.url}/v1`,
      COPILOT_PROVIDER_API_KEY: "dummy",
      COPILOT_MODEL: "claude-sonnet-4.5",
    };
    const bin = join(ctx.binDir, "copilot");
    await ctx.exec(bin, ["-p", PROMPTS.A, "--allow-all"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.B, "--allow-all", "--continue"], { env });
    await ctx.exec(bin, ["-p", "/compact", "--allow-all", "--continue"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.C, "--allow-all", "--continue"], { env });
  },
  keep: (rel) => /^\.copilot\/session-state\/[^/]+\/events\.jsonl$/.test(rel),
};
