/**
 * Nanocoder (`@nanocollective/nanocoder`): an OpenAI-compatible provider at the fake in
 * `~/.config/nanocoder/agents.config.json`, driven through its Agent Client Protocol mode (`--acp`), which saves
 * each session to its sessions folder (its plain `run` mode saves none; its terminal UI needs a terminal). TASK-A
 * and TASK-B in a new session, TASK-C after `session/load` in a new process. The subagent is one of the user's
 * own (`~/.config/nanocoder/agents/helper.md`): the package ships without its built-in ones. Its compaction (`/compact`,
 * or automatic on its own token count) runs only in the terminal UI, so it is not driven here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

export const nanocoder: AgentDriver = {
  name: "nanocoder",
  pkg: "@nanocollective/nanocoder",
  bin: "nanocoder",
  protocols: [chat],
  script: {
    subagents: true,
    tools: { shell: ["execute_bash"], edit: ["string_replace"] },
    // Its `agent` tool takes the task as `description`, for a subagent type its description lists (`explore`).
    encode: (step) =>
      step.kind === "subagent" ? { name: "agent", args: { subagent_type: "helper", description: step.prompt } } : null,
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    configure(ctx);
    const bin = join(ctx.binDir, "nanocoder");
    const first = await protocol(ctx, bin);
    const { sessionId } = (await first.call("session/new", { cwd: ctx.dir, mcpServers: [] })) as { sessionId: string };
    await first.prompt(sessionId, PROMPTS.A);
    await first.prompt(sessionId, PROMPTS.B);
    await first.end();
    // The saved session, loaded again by a new process.
    const next = await protocol(ctx, bin);
    await next.call("session/load", { sessionId, cwd: ctx.dir, mcpServers: [] });
    await next.prompt(sessionId, PROMPTS.C);
    await next.end();
  },
  keep: (rel) => /^\.local\/share\/nanocoder\/sessions\/[0-9a-f-]{36}\.json$/.test(rel),
  // The index of the sessions, beside them: not a session.
  sidecar: (rel) => rel === ".local/share/nanocoder/sessions/sessions.json",
};

function configure(ctx: RunContext): void {
  const dir = join(ctx.home, ".config", "nanocoder");
  mkdirSync(dir, { recursive: true });
  const config = {
    nanocoder: {
      providers: [{ name: "fake", baseUrl: `${ctx.server.url}/v1`, apiKey: "dummy", models: ["fake-coder"] }],
      // A subagent asks no one for approval: in the protocol mode it is denied a command unless allowed here.
      alwaysAllow: ["execute_bash"],
    },
  };
  writeFileSync(join(dir, "agents.config.json"), `${JSON.stringify(config, null, 2)}\n`);
  // A subagent of the user's own (the package ships none of its built-in ones).
  mkdirSync(join(dir, "agents"), { recursive: true });
  writeFileSync(
    join(dir, "agents", "helper.md"),
    "---\nname: helper\ndescription: Counts and checks things in the project.\ntools:\n  - execute_bash\n  - read_file\n---\n\nYou count and check things in the project, and report the result.\n",
  );
}

function answer(req: Record<string, unknown>): Record<string, unknown> {
  const params = req["params"] as { options?: Array<{ optionId: string; kind?: string }> } | undefined;
  if (req["method"] === "session/request_permission") {
    const allow = params?.options?.find((o) => o.kind?.startsWith("allow")) ?? params?.options?.[0];
    return { jsonrpc: "2.0", id: req["id"], result: { outcome: { outcome: "selected", optionId: allow?.optionId } } };
  }
  return { jsonrpc: "2.0", id: req["id"], error: { code: -32601, message: "not supported by the harness" } };
}

/** An ACP session of `nanocoder --acp`: requests, and prompts that return when the turn is done. */
async function protocol(ctx: RunContext, bin: string) {
  const acp = ctx.lines(bin, ["--acp"]);
  let n = 0;
  const call = async (method: string, params: Record<string, unknown>) => {
    const id = ++n;
    const reply = acp.waitFor((l) => {
      if (typeof l["method"] === "string" && l["id"] !== undefined) acp.send(answer(l));
      return l["id"] === id && l["method"] === undefined;
    }, 240_000);
    acp.send({ jsonrpc: "2.0", id, method, params });
    const r = await reply;
    if (r["error"]) throw new Error(`nanocoder ${method}: ${JSON.stringify(r["error"])}`);
    return r["result"] as Record<string, unknown>;
  };
  await call("initialize", {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  const prompt = async (sessionId: string, text: string) => {
    ctx.log(`prompt: ${JSON.stringify(await call("session/prompt", { sessionId, prompt: [{ type: "text", text }] }))}`);
  };
  return { call, prompt, end: () => acp.end() };
}
