/**
 * pi (`@earendil-works/pi-coding-agent`): a `models.json` provider (`openai-completions`) at the fake; the first
 * turn with `--print`, the second with `--continue --print`, then RPC mode on the same session for a manual
 * compaction and a third prompt; then the user goes back to that prompt, forks there (a second session file naming
 * its parent) and asks something else in the fork (TASK-D: a read that fails, an inline script, a commit, in a
 * project that is now a git repository). pi has no subagents of its own.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const pi: AgentDriver = {
  name: "pi",
  pkg: "@earendil-works/pi-coding-agent",
  bin: "pi",
  protocols: [chat],
  script: { subagents: false },
  extra: (_method, path) => (path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder" }] } : null),
  async run(ctx) {
    const { bin, model } = setUp(ctx);
    await ctx.exec(bin, [...model, "--print", PROMPTS.A]);
    await ctx.exec(bin, [...model, "--continue", "--print", PROMPTS.B]);
    const rpc = ctx.lines(bin, [...model, "--continue", "--mode", "rpc"]);
    rpc.send({ id: "c1", type: "compact" });
    await rpc.waitFor((l) => l["type"] === "response" && l["id"] === "c1");
    rpc.send({ id: "p1", type: "prompt", message: PROMPTS.C });
    await rpc.waitFor((l) => l["type"] === "agent_end");
    await gitRepo(ctx);
    rpc.send({ id: "f1", type: "get_fork_messages" });
    const forkable = (await rpc.waitFor((l) => l["type"] === "response" && l["id"] === "f1"))["data"] as {
      messages: Array<{ entryId: string; text: string }>;
    };
    const at = forkable.messages.find((m) => m.text.startsWith("TASK-C:"));
    if (!at) throw new Error("pi offers no fork at the third prompt");
    rpc.send({ id: "f2", type: "fork", entryId: at.entryId });
    await rpc.waitFor((l) => l["type"] === "response" && l["id"] === "f2");
    rpc.send({ id: "p2", type: "prompt", message: PROMPTS.D });
    await rpc.waitFor((l) => l["type"] === "agent_end");
    await rpc.end();
  },
  keep: (rel) => /^\.pi\/agent\/sessions\/.*\.jsonl$/.test(rel),
  async once(ctx, prompt) {
    const { bin, model } = setUp(ctx);
    await ctx.exec(bin, [...model, "--print", prompt]);
  },
};

/** The project becomes a git repository with an author, so that TASK-D's commit goes through. */
async function gitRepo(ctx: RunContext): Promise<void> {
  writeFileSync(join(ctx.home, ".gitconfig"), "[user]\n\tname = Cairn Harness\n\temail = harness@example.invalid\n");
  await ctx.exec("git", ["init", "-q"]);
}

/** pi's settings and model file pointing at the fake; the binary and the model flags. */
function setUp(ctx: RunContext): { bin: string; model: string[] } {
  const agentDir = join(ctx.home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    `${JSON.stringify(
      {
        providers: {
          fake: {
            baseUrl: `${ctx.server.url}/v1`,
            api: "openai-completions",
            apiKey: "dummy",
            models: [{ id: "fake-coder", contextWindow: 128000, maxTokens: 4096 }],
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(agentDir, "settings.json"),
    `${JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-coder", compaction: { keepRecentTokens: 1 } }, null, 2)}\n`,
  );
  const bin = join(ctx.binDir, "pi");
  const model = ["--provider", "fake", "--model", "fake-coder"];
  return { bin, model };
}
