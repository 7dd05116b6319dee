/**
 * Oh My Pi (`@oh-my-pi/pi-coding-agent`, `omp`), a fork of pi that runs on Bun: Bun comes from the registry's `bun`
 * package, installed beside the CLI. A `models.yml` provider (`openai-completions`) at the fake; the first turn with
 * `--print`, the second with `--continue --print`, then RPC mode on the same session for a manual compaction and a
 * third prompt.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const omp: AgentDriver = {
  name: "omp",
  pkg: "@oh-my-pi/pi-coding-agent",
  bin: "omp",
  protocols: [chat],
  // Its `task` tool takes a batch of tasks.
  script: {
    subagents: true,
    encode: (step) =>
      step.kind === "subagent"
        ? {
            name: "task",
            args: {
              i: step.description,
              context: step.description,
              tasks: [{ name: "LineCounter", task: step.prompt }],
            },
          }
        : null,
  },
  extra: (_method, path) => (path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder" }] } : null),
  async run(ctx) {
    const { bin, model } = setUp(ctx);
    await ctx.exec(bin, [...model, "--print", PROMPTS.A]);
    await ctx.exec(bin, [...model, "--continue", "--print", PROMPTS.B]);
    const rpc = ctx.lines(bin, [...model, "--continue", "--mode", "rpc"]);
    rpc.send({ id: "c1", type: "compact" });
    const compacted = await rpc.waitFor((l) => l["type"] === "response" && l["id"] === "c1");
    if (compacted["success"] !== true) throw new Error(`omp did not compact: ${String(compacted["error"])}`);
    rpc.send({ id: "p1", type: "prompt", message: PROMPTS.C });
    await rpc.waitFor((l) => l["type"] === "agent_end");
    await rpc.end();
  },
  keep: (rel) => /^\.omp\/agent\/sessions\/.*\.jsonl$/.test(rel),
  // A subagent's final output, beside its session.
  sidecar: (rel) => /^\.omp\/agent\/sessions\/.*\.md$/.test(rel),
  async once(ctx, prompt) {
    const { bin, model } = setUp(ctx);
    await ctx.exec(bin, [...model, "--print", prompt]);
  },
};

/** omp's model file and settings pointing at the fake; Bun beside the CLI; the binary and the model flags. */
function setUp(ctx: RunContext): { bin: string; model: string[] } {
  ensureBun(ctx.binDir);
  const agentDir = join(ctx.home, ".omp", "agent");
  mkdirSync(agentDir, { recursive: true });
  // YAML takes JSON as it is.
  const models = {
    providers: {
      fake: {
        baseUrl: `${ctx.server.url}/v1`,
        api: "openai-completions",
        apiKey: "dummy",
        models: [{ id: "fake-coder", contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  };
  writeFileSync(join(agentDir, "models.yml"), `${JSON.stringify(models, null, 2)}\n`);
  // Edits by old and new text (its default edit tool takes line-anchored patches); subagents in the foreground (in
  // the background, `--print` may exit before one has run); a compaction keeps no turn whole.
  const config = { edit: { mode: "replace" }, async: { enabled: false }, compaction: { keepRecentTokens: 1 } };
  writeFileSync(join(agentDir, "config.yml"), `${JSON.stringify(config, null, 2)}\n`);
  const bin = join(ctx.binDir, "omp");
  const model = ["--model", "fake/fake-coder", "--auto-approve", "--no-title", "--no-lsp"];
  return { bin, model };
}

/** The `bun` package (its platform binary is an optional dependency from the registry) beside the CLI. */
function ensureBun(binDir: string): void {
  const prefix = join(binDir, "..", "..");
  const pkg = join(prefix, "node_modules", "bun");
  if (!existsSync(pkg))
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "bun"], { cwd: prefix, stdio: "ignore" });
  // npm may hold back install scripts: the one that puts the platform binary in place runs here.
  execFileSync(process.execPath, ["install.js"], { cwd: pkg, stdio: "ignore" });
}
