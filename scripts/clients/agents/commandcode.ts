/**
 * Command Code (`command-code`, `cmd`): a provider of one's own (`openai-completions`) in
 * `~/.commandcode/providers.json` at the fake, run `--local-only` (no traffic to its vendor; the account key it still asks for is a dummy); the first
 * turn with `-p`, the next two with `-c -p` in the same session (`-p` takes `/compact` as a prompt: no compaction).
 * Its `agent` tool runs a subagent whose conversation is kept nowhere but in the tool's result.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const commandcode: AgentDriver = {
  name: "commandcode",
  pkg: "command-code",
  bin: "cmd",
  protocols: [chat],
  script: { subagents: true },
  extra: (_method, path) => (path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder" }] } : null),
  async run(ctx) {
    const { bin, args, env } = setUp(ctx);
    await ctx.exec(bin, [...args, "-p", PROMPTS.A], { env });
    await ctx.exec(bin, [...args, "-c", "-p", PROMPTS.B], { env });
    await ctx.exec(bin, [...args, "-c", "-p", PROMPTS.C], { env });
  },
  keep: (rel) => /^\.commandcode\/projects\/.*\.jsonl$/.test(rel) && !rel.endsWith(".checkpoints.jsonl"),
  // Beside each session: the prompts' file snapshots (JSONL, not a transcript) and how it was started.
  sidecar: (rel) => /^\.commandcode\/projects\/.*(\.checkpoints\.jsonl|\.meta\.json)$/.test(rel),
};

function setUp(ctx: RunContext): { bin: string; args: string[]; env: Record<string, string> } {
  pinSemanticConventions(ctx.binDir);
  const dir = join(ctx.home, ".commandcode");
  mkdirSync(dir, { recursive: true });
  const providers = {
    provider: {
      "fake-api": {
        api: "openai-completions",
        baseURL: `${ctx.server.url}/v1`,
        apiKey: "$FAKE_API_KEY",
        models: { "fake-coder": { contextWindow: 128000 } },
      },
    },
  };
  writeFileSync(join(dir, "providers.json"), `${JSON.stringify(providers, null, 2)}\n`);
  return {
    bin: join(ctx.binDir, "cmd"),
    args: [
      "--model",
      "fake-api/fake-coder",
      "--local-only",
      "--yolo",
      "--trust",
      "--skip-onboarding",
      "--no-auto-update",
    ],
    // It asks for an account key even when it is not to use it.
    env: { FAKE_API_KEY: "dummy", COMMAND_CODE_API_KEY: "user_dummy" },
  };
}

/**
 * Its bundle imports `@opentelemetry/semantic-conventions` by a default export, which the newest release its range
 * admits no longer has (1.45): the oldest of that range, which has it, goes beside the CLI.
 */
function pinSemanticConventions(binDir: string): void {
  const prefix = join(binDir, "..", "..");
  const pkg = join(prefix, "node_modules", "@opentelemetry", "semantic-conventions", "package.json");
  if ((JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version === "1.30.0") return;
  execFileSync(
    "npm",
    ["install", "--no-save", "--no-audit", "--no-fund", "@opentelemetry/semantic-conventions@1.30.0"],
    {
      cwd: prefix,
      stdio: "ignore",
    },
  );
}
