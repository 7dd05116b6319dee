/**
 * Hermes Agent (`hermes-agent` on PyPI, Nous Research; command `hermes`): a custom OpenAI-compatible endpoint at
 * the fake (chat completions) in `~/.hermes/config.yaml`; each prompt through `hermes chat -q … -Q --yolo`, the
 * first starting the session and the next ones resuming it (`--resume <id>`, the id its quiet mode prints).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { type AgentScript, PROMPTS, type Step } from "../fake/script.ts";
import type { Conversation, ToolCallReply } from "../fake/types.ts";

/** Its edit tool takes a `mode`; its subagent tool a `goal`. */
function encode(step: Step, conv: Conversation, dir: string): ToolCallReply | null {
  const offers = (name: string) => conv.tools.some((t) => t.name === name);
  if (step.kind === "edit" && offers("patch"))
    return {
      name: "patch",
      args: { mode: "replace", path: join(dir, step.file), old_string: step.old, new_string: step.new },
    };
  if (step.kind === "subagent" && offers("delegate_task"))
    return {
      name: "delegate_task",
      args: { goal: step.prompt, context: `The project is in ${dir}.`, background: false },
    };
  return null;
}

const script: AgentScript = {
  subagents: true,
  tools: { shell: ["terminal"], subagent: ["delegate_task"] },
  compactDuring: "B",
  encode,
};

function configure(ctx: RunContext): void {
  const dir = join(ctx.home, ".hermes");
  mkdirSync(dir, { recursive: true });
  const config = [
    "model:",
    "  default: fake-coder",
    "  provider: custom",
    `  base_url: ${ctx.server.url}/v1`,
    "  api_key: dummy",
    "  context_length: 200000",
    "",
  ].join("\n");
  writeFileSync(join(dir, "config.yaml"), config);
}

/** The one session without a parent (one-shot mode prints no id). */
function sessionId(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT id FROM sessions WHERE parent_session_id IS NULL").all() as { id: string }[];
    if (rows.length !== 1 || !rows[0]) throw new Error(`expected one hermes session, found ${rows.length}`);
    return rows[0].id;
  } finally {
    db.close();
  }
}

export const hermes: AgentDriver = {
  name: "hermes",
  pkg: "hermes-agent",
  registry: "pypi",
  bin: "hermes",
  protocols: [chat],
  script,
  extra: (_method, path) =>
    path.startsWith("/v1/models")
      ? { object: "list", data: [{ id: "fake-coder", object: "model", context_length: 200000 }] }
      : null,
  async run(ctx) {
    configure(ctx);
    const bin = join(ctx.binDir, "hermes");
    const say = (prompt: string, ...more: string[]) => ctx.exec(bin, ["chat", "-q", prompt, "-Q", "--yolo", ...more]);
    // One-shot mode runs a subagent to its end within the turn (the chat mode leaves it running in the background,
    // and the process exits under it).
    await ctx.exec(bin, ["-z", PROMPTS.A]);
    const id = sessionId(join(ctx.home, ".hermes", "state.db"));
    await say(PROMPTS.B, "--resume", id);
    await say(PROMPTS.C, "--resume", id);
  },
  // The database of the default profile (with its write-ahead log, folded in when recorded).
  keep: (rel) => /^\.hermes\/state\.db(-wal|-shm)?$/.test(rel),
};
