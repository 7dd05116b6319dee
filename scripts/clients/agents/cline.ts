/**
 * Cline CLI (`cline`): an OpenAI-compatible provider at the fake (`cline auth`); the first turn with
 * `cline --json`, then its Agent Client Protocol mode (`--acp`: `session/load`, `session/prompt`) on the same
 * session, since `--id` always opens the terminal UI. Its compaction (`/compact`, or automatic near a full context)
 * is not driven here: the TUI's command has no protocol equivalent, and the automatic one never triggered.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS, type Step } from "../fake/script.ts";
import type { Conversation, ToolCallReply } from "../fake/types.ts";

/** Cline's tools take lists (commands, files) and one editor for edits and new files. */
function encode(step: Step, _conv: Conversation, dir: string): ToolCallReply | null {
  switch (step.kind) {
    case "shell":
      return { name: "run_commands", args: { commands: [step.command] } };
    case "read":
      return { name: "read_files", args: { files: [{ path: join(dir, step.file) }] } };
    case "edit":
      return { name: "editor", args: { path: join(dir, step.file), old_text: step.old, new_text: step.new } };
    case "write":
      return { name: "editor", args: { path: join(dir, step.file), new_text: step.content } };
    case "subagent":
      return { name: "spawn_agent", args: { systemPrompt: "You count lines of files.", task: step.prompt } };
    default:
      return null;
  }
}

/** The one session the first turn wrote. */
function firstSession(root: string): string {
  const ids = readdirSync(root);
  if (ids.length !== 1 || !ids[0]) throw new Error(`expected one cline session, found ${ids.length}`);
  return ids[0];
}

function answer(req: Record<string, unknown>): Record<string, unknown> {
  const params = req["params"] as { options?: Array<{ optionId: string; kind?: string }> } | undefined;
  if (req["method"] === "session/request_permission") {
    const allow = params?.options?.find((o) => o.kind?.startsWith("allow")) ?? params?.options?.[0];
    return { jsonrpc: "2.0", id: req["id"], result: { outcome: { outcome: "selected", optionId: allow?.optionId } } };
  }
  return { jsonrpc: "2.0", id: req["id"], error: { code: -32601, message: "not supported by the harness" } };
}

/** Cline leaves a hub daemon behind (in a process group of its own): stop the one this run started, by its pid. */
function stopHub(home: string): void {
  const lock = join(home, ".cline", "data", "locks", "hub", "production.json");
  if (!existsSync(lock)) return;
  const pid = (JSON.parse(readFileSync(lock, "utf8")) as { pid?: number }).pid;
  if (typeof pid !== "number") return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already gone
  }
}

export const cline: AgentDriver = {
  name: "cline",
  pkg: "cline",
  bin: "cline",
  protocols: [chat],
  script: { subagents: true, encode },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    const bin = join(ctx.binDir, "cline");
    const url = `${ctx.server.url}/v1`;
    await ctx.exec(bin, ["auth", "-p", "openai", "-k", "dummy", "-m", "fake-coder", "-b", url]);
    try {
      await turns(ctx, bin);
    } finally {
      stopHub(ctx.home);
    }
  },
  keep: (rel) => /^\.cline\/data\/sessions\/[^/]+\/[^/]+\.json$/.test(rel),
  // The log of the hooks it ran, beside the sessions: not a transcript.
  sidecar: (rel) => /^\.cline\/.*hooks\.jsonl$/.test(rel),
};

async function turns(ctx: RunContext, bin: string): Promise<void> {
  await ctx.exec(bin, ["--json", PROMPTS.A], { timeoutMs: 240_000 });
  const sessionId = firstSession(join(ctx.home, ".cline", "data", "sessions"));
  // ACP mode authenticates from the environment (and then asks for the provider's default model by name).
  const acp = ctx.lines(bin, ["--acp"], { CLINE_API_KEY: "dummy", CLINE_PROVIDER: "openai-compatible" });
  let n = 0;
  const call = async (method: string, params: Record<string, unknown>) => {
    const id = ++n;
    // While it works, the agent asks for permissions (and maybe files): allow, and say no file access.
    const reply = acp.waitFor((l) => {
      if (typeof l["method"] === "string" && l["id"] !== undefined) acp.send(answer(l));
      return l["id"] === id && l["method"] === undefined;
    }, 240_000);
    acp.send({ jsonrpc: "2.0", id, method, params });
    const r = await reply;
    if (r["error"]) throw new Error(`cline ${method}: ${JSON.stringify(r["error"])}`);
    return r["result"] as Record<string, unknown>;
  };
  await call("initialize", {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  await call("session/load", { sessionId, cwd: ctx.dir, mcpServers: [] });
  for (const text of [PROMPTS.B, PROMPTS.C])
    ctx.log(`prompt: ${JSON.stringify(await call("session/prompt", { sessionId, prompt: [{ type: "text", text }] }))}`);
  await acp.end();
}
