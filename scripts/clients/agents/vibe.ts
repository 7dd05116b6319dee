/**
 * Mistral Vibe (`mistral-vibe` on PyPI, command `vibe`): a provider at the fake (chat completions) in
 * `~/.vibe/config.toml`; the first turn with `vibe -p … --auto-approve --trust`, then `--resume <id>` on the same
 * session for the next prompts. TASK-B's answer reports a nearly full context, so Vibe compacts before TASK-C.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { type AgentScript, PROMPTS, playScript, type Step } from "../fake/script.ts";
import type { Conversation, Reply, ToolCallReply } from "../fake/types.ts";

interface Meta {
  session_id: string;
  parent_session_id?: string | null;
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

/**
 * Vibe 3 reaches subagents only from a program (`run_typescript` calling `tools.agents.spawn`); Vibe 2 has a `task`
 * tool, which the brain finds by itself.
 */
function encode(step: Step, conv: Conversation, dir: string): ToolCallReply | null {
  const offers = (name: string) => conv.tools.some((t) => t.name === name);
  // Vibe 2's subagent explores read-only (no shell): it counts the lines by reading the file.
  if (step.kind === "shell" && !offers("bash") && offers("read_file") && step.command === "wc -l math.js")
    return { name: "read_file", args: { file_path: join(dir, "math.js") } };
  if (step.kind !== "subagent" || !offers("run_typescript")) return null;
  const code = `async function main() {\n  return await tools.agents.spawn({ name: "counter", message: ${JSON.stringify(step.prompt)} });\n}`;
  return { name: "run_typescript", args: { code } };
}

const script: AgentScript = { subagents: true, tools: { subagent: ["run_typescript"] }, compactAfter: "B", encode };

/** The project folder of the current run, for the brain's replies (set when the run starts). */
let projectDir = "";

/**
 * Vibe 2 carries on after a compaction with one message quoting the earlier prompts: the task at hand is the last
 * one it quotes, not the first.
 */
function side(conv: Conversation, path: string, body: unknown): Reply | null {
  const last = [...conv.msgs].reverse().find((m) => m.role === "user");
  if (!last || !/^You are continuing a trajectory after a context compaction/.test(last.text)) return null;
  const latest = last.text.match(/TASK-[A-Z]+:[^\n<]*/g)?.at(-1);
  if (!latest) return null;
  const msgs = conv.msgs.map((m) => (m === last ? { ...m, text: latest } : m));
  return playScript({ ...conv, msgs }, script, projectDir, path, body);
}

export const vibe: AgentDriver = {
  name: "vibe",
  pkg: "mistral-vibe",
  bin: "vibe",
  registry: "pypi",
  protocols: [chat],
  script: { ...script, side },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    projectDir = ctx.dir;
    const dir = join(ctx.home, ".vibe");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.toml"), config(ctx.server.url));
    const bin = join(ctx.binDir, "vibe");
    const env = { FAKE_API_KEY: "dummy" };
    const flags = ["--auto-approve", "--trust", "--output", "json"];
    await ctx.exec(bin, ["-p", PROMPTS.A, ...flags], { env });
    const id = sessionId(join(dir, "logs", "session"));
    await ctx.exec(bin, ["-p", PROMPTS.B, "--resume", id, ...flags], { env });
    await ctx.exec(bin, ["-p", PROMPTS.C, "--resume", id, ...flags], { env });
  },
  // The session stores, whole: `CURRENT` and what it points to, and the chunks and generations left beside them.
  keep: (rel) =>
    /^\.vibe\/logs\/session\/unified\/[^/]+\/(?!journal\/)/.test(rel) ||
    /^\.vibe\/logs\/session\/session_[^/]+\/(agents\/[^/]+\/)?(messages\.jsonl|meta\.json)$/.test(rel),
  // Each store's recovery journal (the records since its last snapshot, appended to and then discarded): not a
  // transcript, and the only JSON-lines file in it.
  sidecar: (rel) => /^\.vibe\/logs\/session\/unified\/[^/]+\/journal\/\d+\.jsonl$/.test(rel),
};

/**
 * The one session without a parent (a subagent's session sits beside it, naming it as its parent): a store under
 * `unified/` (Vibe 3), or a `session_<time>_<id>` folder (Vibe 2).
 */
function sessionId(root: string): string {
  const unified = join(root, "unified");
  const dirs = existsSync(unified)
    ? readdirSync(unified).map((d) => join(unified, d))
    : readdirSync(root)
        .filter((d) => d.startsWith("session_"))
        .map((d) => join(root, d));
  const main = dirs.flatMap((d) => {
    const path = join(d, "meta.json");
    const meta = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Meta) : null;
    return meta && !meta.parent_session_id ? [meta.session_id] : [];
  });
  if (main.length !== 1 || !main[0]) throw new Error(`expected one vibe session, found ${main.join(", ")}`);
  return main[0];
}
