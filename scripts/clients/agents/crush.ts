/**
 * Crush (Charm's coding agent, a Go program): its npm package downloads a release binary from GitHub, so it is
 * built from its Go module instead (scripts/clients/install.ts). An `openai-compat` provider at the fake in the
 * global `~/.config/crush/crush.json`; `crush run` (which approves its own tool calls), then `run --continue` twice.
 * The second prompt's last reply reports a context nearly full, so Crush summarizes the session on its own (the
 * summary is a message of the same session). Sessions go to the project's `.crush/crush.db`; the project is made
 * under HOME so that the fixture holds it, with `~/.local/share/crush/projects.json`, Crush's list of the projects
 * it ran in (and their data folders), which is how cairn finds every project's database.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { findTool, PROMPTS } from "../fake/script.ts";

export const crush: AgentDriver = {
  name: "crush",
  pkg: "github.com/charmbracelet/crush",
  go: "github.com/charmbracelet/crush",
  bin: "crush",
  projectInHome: true,
  protocols: [chat],
  script: {
    subagents: true,
    compactAfter: "B",
    // The title of a new session, asked of the small model with no tools.
    side: (conv) => (/generate a short title/i.test(conv.system) ? { text: "Fix the failing add test" } : null),
    // Its subagent (`agent`) has read-only tools (glob, grep, ls, view): the line count is read, not run.
    encode: (step, conv, dir) => {
      if (step.kind !== "shell" || findTool(conv, { subagents: true }, "shell")) return null;
      const file = /^wc -l (\S+)$/.exec(step.command)?.[1];
      return file && conv.tools.some((t) => t.name === "view")
        ? { name: "view", args: { file_path: join(dir, file) } }
        : null;
    },
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    const configDir = join(ctx.home, ".config", "crush");
    mkdirSync(configDir, { recursive: true });
    const model = { model: "fake-coder", provider: "fake" };
    const config = {
      $schema: "https://charm.land/crush.json",
      providers: {
        fake: {
          type: "openai-compat",
          name: "Fake",
          base_url: `${ctx.server.url}/v1`,
          api_key: "dummy",
          models: [{ id: "fake-coder", name: "Fake Coder", context_window: 200_000, default_max_tokens: 4096 }],
        },
      },
      models: { large: model, small: model },
      options: { disable_provider_auto_update: true, disable_metrics: true },
    };
    writeFileSync(join(configDir, "crush.json"), `${JSON.stringify(config, null, 2)}\n`);
    const env = { CRUSH_DISABLE_PROVIDER_AUTO_UPDATE: "1", CRUSH_DISABLE_METRICS: "1", DO_NOT_TRACK: "1" };
    const bin = join(ctx.binDir, "crush");
    const run = (prompt: string, more: string[] = []) => ctx.exec(bin, ["run", "--quiet", ...more, prompt], { env });
    await run(PROMPTS.A);
    await run(PROMPTS.B, ["--continue"]);
    await run(PROMPTS.C, ["--continue"]);
  },
  keep: (rel) => /^project\/\.crush\/crush\.db(-wal|-shm)?$/.test(rel) || rel === ".local/share/crush/projects.json",
};
