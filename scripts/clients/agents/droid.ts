/**
 * Factory Droid (`@factory/cli`): a `customModels` entry (chat completions) at the fake in
 * `~/.factory/settings.json`; the first turn with `droid exec --auto high`, then its JSON-RPC mode on the same
 * session (`droid exec -s` asks the vendor's server for the session and fails offline) for a second prompt and a
 * compaction (which writes a child session naming its parent and holding the summary); the last prompt goes to
 * that child, loaded in a new protocol session, as the terminal UI carries on in it after `/compress` (the first
 * protocol session would keep writing to the parent).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";

const MODEL = "custom:fake-coder";

export const droid: AgentDriver = {
  name: "droid",
  pkg: "@factory/cli",
  bin: "droid",
  protocols: [chat],
  // Its Task tool takes the subagent types a system reminder lists (worker, explorer), not a general-purpose one.
  script: {
    subagents: true,
    encode: (step, conv) => {
      if (step.kind !== "subagent") return null;
      const tool = conv.tools.find((t) => t.name === "Task");
      if (!tool) return null;
      return { name: tool.name, args: { subagent_type: "worker", description: step.description, prompt: step.prompt } };
    },
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    ensurePlatformBinary(ctx.binDir, ctx.version);
    const dir = join(ctx.home, ".factory");
    mkdirSync(dir, { recursive: true });
    const settings = {
      customModels: [
        {
          model: "fake-coder",
          displayName: "fake-coder",
          baseUrl: `${ctx.server.url}/v1`,
          apiKey: "dummy",
          provider: "generic-chat-completion-api",
          maxOutputTokens: 4096,
        },
      ],
    };
    writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    const bin = join(ctx.binDir, "droid");
    const env = { FACTORY_DISABLE_AUTOUPDATE: "1" };
    await ctx.exec(bin, ["exec", "-m", MODEL, "--auto", "high", PROMPTS.A], { env });
    const sessionId = latestSession(join(dir, "sessions"));
    const first = protocol(ctx, bin, env);
    await first.call("droid.load_session", { sessionId });
    await first.prompt(PROMPTS.B);
    const compacted = (await first.call("droid.compact_session", {}))["result"] as
      | { newSessionId?: string }
      | undefined;
    if (!compacted?.newSessionId) throw new Error("droid did not compact the session");
    await first.end();
    const next = protocol(ctx, bin, env);
    await next.call("droid.load_session", { sessionId: compacted.newSessionId });
    await next.prompt(PROMPTS.C);
    await next.end();
  },
  keep: (rel) => /^\.factory\/sessions\/.*\.jsonl$/.test(rel),
};

/** A JSON-RPC session of `droid exec`: requests, and prompts that return when the agent's turn is done. */
function protocol(ctx: RunContext, bin: string, env: Record<string, string>) {
  const rpc = ctx.lines(
    bin,
    ["exec", "--input-format", "stream-jsonrpc", "--output-format", "stream-jsonrpc", "-m", MODEL, "--auto", "high"],
    env,
  );
  let n = 0;
  const call = async (method: string, params: Record<string, unknown>) => {
    const id = `r${++n}`;
    rpc.send({ type: "request", jsonrpc: "2.0", factoryApiVersion: "1.0.0", id, method, params });
    return rpc.waitFor((l) => l["id"] === id && l["type"] === "response");
  };
  const prompt = async (text: string) => {
    const done = rpc.waitFor((l) => notification(l) === "agent_turn_completed");
    await call("droid.add_user_message", { text });
    await done;
  };
  return { call, prompt, end: () => rpc.end() };
}

function notification(line: Record<string, unknown>): string | undefined {
  const params = line["params"] as { notification?: { type?: string } } | undefined;
  return line["type"] === "notification" ? params?.notification?.type : undefined;
}

/** The newest session file's id (the first turn's). */
function latestSession(root: string): string {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
  const newest = files.sort((a, b) => statSync(join(root, b)).mtimeMs - statSync(join(root, a)).mtimeMs)[0];
  if (!newest) throw new Error("droid wrote no session");
  return basename(newest, ".jsonl");
}

/**
 * The package's platform binary is an optional dependency pinned to the package's own version, and some releases
 * publish it only under a later patch: install the newest one of the same minor release beside the package.
 */
export function ensurePlatformBinary(binDir: string, version: string): void {
  const prefix = join(binDir, "..", "..");
  const platform = `@factory/cli-${process.platform}-${process.arch}`;
  if (existsSync(join(prefix, "node_modules", platform, "bin", "droid"))) return;
  const minor = version.split(".").slice(0, 2).join(".");
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", `${platform}@~${minor}.0`], {
    cwd: prefix,
    stdio: "ignore",
  });
}
