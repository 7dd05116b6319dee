/**
 * Mistral Vibe (`mistral-vibe` on PyPI, command `vibe`): a provider at the fake (chat completions) in
 * `~/.vibe/config.toml`; the first turn with `vibe -p … --auto-approve --trust`, then `--resume <id>` on the same
 * session for the next prompts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

interface Meta {
  parent_session_id: string | null;
}

function config(url: string): string {
  return `active_model = "fake"
enable_telemetry = false
enable_update_checks = false
enable_notifications = false

[[providers]]
name = "fake"
api_base = "${url}/v1"
api_key_env_var = "FAKE_API_KEY"
api_style = "openai"
backend = "generic"

[[models]]
name = "fake-coder"
provider = "fake"
alias = "fake"
`;
}

export const vibe: AgentDriver = {
  name: "vibe",
  pkg: "mistral-vibe",
  bin: "vibe",
  pip: { python: "3.12" },
  protocols: [chat],
  script: {
    subagents: true,
    tools: { subagent: ["run_typescript"] },
    compactAfter: "B",
    // Subagents are only reachable from a program (`run_typescript` calling `tools.agents.spawn`).
    encode: (step) =>
      step.kind === "subagent"
        ? {
            name: "run_typescript",
            args: {
              code: `async function main() {\n  return await tools.agents.spawn({ name: "counter", message: ${JSON.stringify(step.prompt)} });\n}`,
            },
          }
        : null,
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    const dir = join(ctx.home, ".vibe");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.toml"), config(ctx.server.url));
    const bin = join(ctx.binDir, "vibe");
    const env = { FAKE_API_KEY: "dummy" };
    const flags = ["--auto-approve", "--trust", "--output", "json"];
    await ctx.exec(bin, ["-p", PROMPTS.A, ...flags], { env });
    const id = sessionId(join(dir, "logs", "session", "unified"));
    await ctx.exec(bin, ["-p", PROMPTS.B, "--resume", id, ...flags], { env });
    await ctx.exec(bin, ["-p", PROMPTS.C, "--resume", id, ...flags], { env });
  },
  // The session stores, whole: `CURRENT` and what it points to, and the chunks and generations left beside them.
  keep: (rel) => /^\.vibe\/logs\/session\/unified\/[^/]+\/(?!journal\/)/.test(rel),
  // Each store's recovery journal (the records since its last snapshot, appended to and then discarded): not a
  // transcript, and the only JSON-lines file in it.
  sidecar: (rel) => /^\.vibe\/logs\/session\/unified\/[^/]+\/journal\/\d+\.jsonl$/.test(rel),
};

/** The one session without a parent (a subagent's session sits beside it, naming it as its parent). */
function sessionId(root: string): string {
  const main = readdirSync(root).filter((d) => {
    const meta = join(root, d, "meta.json");
    return existsSync(meta) && (JSON.parse(readFileSync(meta, "utf8")) as Meta).parent_session_id === null;
  });
  if (main.length !== 1 || !main[0]) throw new Error(`expected one vibe session, found ${main.join(", ")}`);
  return main[0];
}
