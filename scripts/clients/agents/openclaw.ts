/**
 * OpenClaw (`openclaw`): a custom `openai-completions` provider at the fake in `~/.openclaw/openclaw.json`, and a
 * Gateway on a loopback port of its own; each prompt is one `openclaw agent --agent main` turn through it, which
 * carries on the agent's main session. The Gateway is what runs a subagent (`sessions_spawn`; the embedded
 * `--local` turn refuses it): the child's result comes back to the main session as a completion event that the
 * main session answers in a run of its own after the command returned, so the next prompt waits for that answer
 * (and queues behind its run instead of steering it). The context the fake reports full after TASK-B makes
 * OpenClaw compact the session before TASK-C. Releases from 2026.9.3 need Node 24.16 or 26 (install.ts installs
 * and runs them on one from the registry); 2026.7.35 is the last release that wrote JSONL files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { type AgentScript, PROMPTS, playScript, type Step } from "../fake/script.ts";
import type { Conversation, Reply, ToolCallReply } from "../fake/types.ts";

/** The event OpenClaw hands the parent when a subagent is done (in a user message of runtime context). */
const COMPLETION = "[Internal task completion event]";
/** How OpenClaw 2026.9 begins the runtime context it sends after the conversation (running and recent subagents). */
const RUNTIME_CONTEXT = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";

/** How many subagent completions the fake has answered in this run, and the project it works in. */
let answered = 0;
let project = "";

/**
 * The parent's answer to a subagent's completion (among what came in since its last reply): the result. Otherwise,
 * the runtime context trailing a request names the subagent's task (`TASK-SUB`) after the prompt: the script is
 * played without it, so that it follows the user's prompt.
 */
function side(conv: Conversation, path: string, body: unknown): Reply | null {
  const since = conv.msgs.slice(conv.msgs.map((m) => m.role).lastIndexOf("assistant") + 1);
  if (since.some((m) => m.role === "user" && m.text.includes(COMPLETION))) {
    answered++;
    return { text: "The helper counted 5 lines in math.js." };
  }
  const msgs = conv.msgs.filter((m) => !(m.role === "user" && m.text.startsWith(RUNTIME_CONTEXT)));
  return msgs.length === conv.msgs.length ? null : playScript({ ...conv, msgs }, base, project, path, body);
}

/**
 * From 2026.9 the tools outside the core set are behind Tool Search: the model spawns a subagent with
 * `tool_call` naming `sessions_spawn` (earlier releases offer `sessions_spawn` itself).
 */
function spawnThroughToolSearch(step: Step, conv: Conversation): ToolCallReply | null {
  if (step.kind !== "subagent" || conv.tools.some((t) => t.name === "sessions_spawn")) return null;
  return { name: "tool_call", args: { id: "sessions_spawn", args: { task: step.prompt } } };
}

const base: AgentScript = {
  subagents: true,
  tools: { shell: ["exec"], subagent: ["sessions_spawn", "tool_call"] },
  encode: spawnThroughToolSearch,
  compactAfter: "B",
};

export const openclaw: AgentDriver = {
  name: "openclaw",
  pkg: "openclaw",
  bin: "openclaw",
  protocols: [chat],
  script: { ...base, side },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    const bin = join(ctx.binDir, "openclaw");
    configure(ctx, await freePort());
    answered = 0;
    project = ctx.dir;
    const gateway = ctx.lines(bin, ["gateway", "run"]);
    try {
      await ready(ctx, bin);
      await ctx.exec(bin, ["agent", "--agent", "main", "--message", PROMPTS.A]);
      await until(() => answered > 0, "the main session never answered its subagent's completion");
      await ctx.exec(bin, ["agent", "--agent", "main", "--message", PROMPTS.B]);
      await ctx.exec(bin, ["agent", "--agent", "main", "--message", PROMPTS.C]);
    } finally {
      await gateway.end();
    }
  },
  // The agent's database (2026.8 on) or its JSONL sessions (before).
  keep: (rel) =>
    /^\.openclaw\/agents\/[^/]+\/agent\/openclaw-agent\.sqlite(-wal)?$/.test(rel) ||
    (/^\.openclaw\/agents\/[^/]+\/sessions\/[^/]+\.jsonl$/.test(rel) && !rel.endsWith(".trajectory.jsonl")),
  // Beside the JSONL sessions: their index (which names a subagent's parent), and each run's trace.
  sidecar: (rel) => /^\.openclaw\/agents\/[^/]+\/sessions\/([^/]+\.trajectory\.jsonl|sessions\.json)$/.test(rel),
};

/** OpenClaw's config: the fake as its only model, the project as the workspace, a Gateway with a token. */
function configure(ctx: RunContext, port: number): void {
  const dir = join(ctx.home, ".openclaw");
  mkdirSync(dir, { recursive: true });
  const config = {
    agents: {
      defaults: {
        model: { primary: "fake/fake-coder" },
        workspace: ctx.dir,
        // The workspace is the project: no persona files and no git repository of OpenClaw's making in it.
        skipBootstrap: true,
        // The plain summary (the safeguard mode audits the summary's headings), and no memory-saving turn first.
        compaction: { mode: "default", memoryFlush: { enabled: false } },
        heartbeat: { every: "0m" },
        // A turn the script does not end (a fake that keeps calling tools) fails in minutes, not in ten.
        timeoutSeconds: 150,
      },
    },
    // A prompt sent while a run is active waits for it, instead of being steered into it.
    messages: { queue: { mode: "followup" } },
    // No memory plugin: it would index the sessions with an embedding provider the fake does not serve.
    plugins: { slots: { memory: "none" } },
    gateway: { mode: "local", port, bind: "loopback", auth: { mode: "token", token: "harness" } },
    // Its log goes to /tmp/openclaw by default: kept in the run's own folder instead.
    logging: { file: join(ctx.home, "..", "tmp", "openclaw.log") },
    models: {
      mode: "merge",
      providers: {
        fake: {
          baseUrl: `${ctx.server.url}/v1`,
          apiKey: "dummy",
          api: "openai-completions",
          models: [
            {
              id: "fake-coder",
              name: "fake-coder",
              reasoning: false,
              input: ["text"],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              // Just above the tokens the fake reports once the context is to be full: near the limit, not over it
              // (over it, OpenClaw before 2026.8 compacts and retries the turn, from a transcript ending in its reply).
              contextWindow: 910_000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
  };
  writeFileSync(join(dir, "openclaw.json"), `${JSON.stringify(config, null, 2)}\n`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Until the Gateway answers its health check. */
async function ready(ctx: RunContext, bin: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const health = await ctx.exec(bin, ["gateway", "health"], { check: false, timeoutMs: 30_000 });
    if (health.code === 0) return;
    await sleep(2000);
  }
  throw new Error("the OpenClaw Gateway did not come up");
}

async function until(done: () => boolean, failure: string): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await sleep(200);
  if (!done()) throw new Error(failure);
}
