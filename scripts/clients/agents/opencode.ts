/**
 * OpenCode (`opencode-ai`) and its fork Kilo Code (`@kilocode/cli`): a custom provider through
 * `@ai-sdk/openai-compatible` at the fake; `run --auto --format json`, then `--continue`; a compaction through the
 * server the TUI's /compact uses (`serve`, then `POST /session/{id}/summarize`). Both keep sessions in SQLite.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

interface Flavor {
  name: string;
  pkg: string;
  bin: string;
  /** Its folder under XDG_CONFIG_HOME and XDG_DATA_HOME, and its config and database file names. */
  app: string;
}

async function waitForServer(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      // A request made while the server starts can be accepted and never answered: give each one a deadline.
      const res = await fetch(`${url}/session`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`no server at ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function compact(ctx: RunContext, bin: string): Promise<void> {
  const port = 40000 + Math.floor(Math.random() * 20000);
  const server = ctx.lines(bin, ["serve", "--port", String(port), "--hostname", "127.0.0.1"]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(url);
    const sessions = (await (await fetch(`${url}/session`, { signal: AbortSignal.timeout(30_000) })).json()) as Array<{
      id: string;
      time?: { updated?: number };
    }>;
    const latest = [...sessions].sort((a, b) => (b.time?.updated ?? 0) - (a.time?.updated ?? 0))[0];
    if (!latest) throw new Error("no session to compact");
    const res = await fetch(`${url}/session/${latest.id}/summarize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ providerID: "fake", modelID: "fake-coder" }),
      signal: AbortSignal.timeout(180_000),
    });
    ctx.log(`summarize: ${res.status} ${(await res.text()).slice(0, 200)}`);
  } finally {
    await server.end();
  }
}

function driver(f: Flavor): AgentDriver {
  return {
    name: f.name,
    pkg: f.pkg,
    bin: f.bin,
    protocols: [chat],
    script: { subagents: true },
    extra: (_method, path) =>
      path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
    async run(ctx) {
      const configDir = join(ctx.home, ".config", f.app);
      mkdirSync(configDir, { recursive: true });
      const config = {
        $schema: "https://opencode.ai/config.json",
        provider: {
          fake: {
            npm: "@ai-sdk/openai-compatible",
            name: "Fake",
            options: { baseURL: `${ctx.server.url}/v1`, apiKey: "dummy" },
            models: { "fake-coder": { name: "Fake Coder", tool_call: true } },
          },
        },
        model: "fake/fake-coder",
        small_model: "fake/fake-coder",
        autoupdate: false,
        share: "disabled",
      };
      writeFileSync(join(configDir, `${f.app}.json`), `${JSON.stringify(config, null, 2)}\n`);
      writeFileSync(join(configDir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
      const env = { OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" };
      const bin = join(ctx.binDir, f.bin);
      const run = (prompt: string, more: string[] = []) =>
        ctx.exec(bin, ["run", "--auto", "--format", "json", "--model", "fake/fake-coder", ...more, prompt], { env });
      await run(PROMPTS.A);
      await run(PROMPTS.B, ["--continue"]);
      await compact(ctx, bin);
      await run(PROMPTS.C, ["--continue"]);
    },
    keep: (rel) => new RegExp(`^\\.local/share/${f.app}/${f.app}\\.db(-wal|-shm)?$`).test(rel),
  };
}

export const opencode = driver({ name: "opencode", pkg: "opencode-ai", bin: "opencode", app: "opencode" });
export const kilo = driver({ name: "kilo", pkg: "@kilocode/cli", bin: "kilo", app: "kilo" });
