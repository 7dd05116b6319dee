/**
 * Kimi CLI (`kimi-cli` on PyPI): a `kimi` provider (Moonshot's chat completions) at the fake in
 * `~/.kimi/config.toml`; every prompt through `kimi --print` (which approves tool calls by itself), the first one
 * starting the session and the others continuing it (`-C`), with `/compact` typed as a prompt of its own between
 * the second and the third.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const kimi: AgentDriver = {
  name: "kimi",
  pkg: "kimi-cli",
  registry: "pypi",
  // 1.52.0 archived the package: every command only prints where to get its successor.
  versions: (v) => v !== "1.52.0",
  bin: "kimi",
  protocols: [chat],
  script: {
    subagents: true,
    tools: { shell: ["Shell"], read: ["ReadFile"], write: ["WriteFile"], edit: ["StrReplaceFile"] },
    // Its edit tool takes `edit: {old, new}` (or a list of them) beside the path.
    encode: (step, conv, dir) => {
      if (step.kind !== "edit" || !conv.tools.some((t) => t.name === "StrReplaceFile")) return null;
      return { name: "StrReplaceFile", args: { path: join(dir, step.file), edit: { old: step.old, new: step.new } } };
    },
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    configure(ctx);
    await say(ctx, PROMPTS.A);
    await say(ctx, PROMPTS.B, "-C");
    await say(ctx, "/compact", "-C");
    await say(ctx, PROMPTS.C, "-C");
  },
  // The event log of each session and subagent.
  keep: (rel) => /^\.kimi\/sessions\/.*\/wire\.jsonl$/.test(rel),
  // Beside them: the model's context as last sent (`context.jsonl`, and `context_<n>.jsonl` set aside at each
  // compaction), a session's and a subagent's state, and the registry of work folders the session folders hash.
  sidecar: (rel) => /^\.kimi\/(kimi\.json|sessions\/.*\/(context(_\d+)?\.jsonl|state\.json|meta\.json))$/.test(rel),
};

function configure(ctx: RunContext): void {
  const dir = join(ctx.home, ".kimi");
  mkdirSync(dir, { recursive: true });
  const config = [
    'default_model = "fake-coder"',
    "",
    "[providers.fake]",
    'type = "kimi"',
    `base_url = "${ctx.server.url}/v1"`,
    'api_key = "dummy"',
    "",
    "[models.fake-coder]",
    'provider = "fake"',
    'model = "fake-coder"',
    "max_context_size = 262144",
    "",
  ].join("\n");
  writeFileSync(join(dir, "config.toml"), config);
}

function say(ctx: RunContext, prompt: string, ...more: string[]) {
  return ctx.exec(join(ctx.binDir, "kimi"), ["--print", ...more, "-p", prompt]);
}
