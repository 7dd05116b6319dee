/**
 * Claude Code (`@anthropic-ai/claude-code`): `claude -p` against ANTHROPIC_BASE_URL, later turns with `--continue`,
 * a real compaction with `-p /compact`. As root it refuses to skip permissions unless IS_SANDBOX=1.
 */
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { anthropic } from "../fake/anthropic.ts";
import { PROMPTS } from "../fake/script.ts";

export const claude: AgentDriver = {
  name: "claude",
  pkg: "@anthropic-ai/claude-code",
  bin: "claude",
  protocols: [anthropic],
  // Task C's second request meets an overloaded API once: the retry records Claude Code writes are the agent's
  // trouble, and must never read as a failure of the command before them.
  script: { subagents: true, overloadOnce: "C" },
  extra: (_method, path) => (path.startsWith("/v1/messages/count_tokens") ? { input_tokens: 100 } : null),
  async run(ctx) {
    const turn = (prompt: string, more: string[] = []) => claudeTurn(ctx, prompt, more);
    await turn(PROMPTS.A);
    await turn(PROMPTS.B, ["--continue"]);
    await turn("/compact", ["--continue"]);
    await turn(PROMPTS.C, ["--continue"]);
  },
  once: (ctx, prompt) => claudeTurn(ctx, prompt).then(() => {}),
  keep: (rel) => rel.startsWith(".claude/projects/"),
};

function claudeTurn(ctx: RunContext, prompt: string, more: string[] = []) {
  const env = {
    ANTHROPIC_BASE_URL: ctx.server.url,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    IS_SANDBOX: "1",
  };
  return ctx.exec(join(ctx.binDir, "claude"), ["-p", prompt, "--dangerously-skip-permissions", ...more], { env });
}
