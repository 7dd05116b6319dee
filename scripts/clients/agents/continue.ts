/**
 * Continue CLI (`@continuedev/cli`, command `cn`): a `config.yaml` in `~/.continue` whose chat model is an
 * OpenAI-compatible endpoint at the fake, and a second model in the `subagent` role for its Subagent tool (offered
 * with `--beta-subagent-tool`; a subagent runs in memory and leaves no session of its own). First a session in the
 * terminal UI (continue-tui.ts): TASK-B, `/compact` (the file then holds the summary in place of everything before
 * it; headless `/compact` compacts in memory and never saves), then TASK-D. Then TASK-A in a new session in the UI,
 * where alone the Subagent tool finds its session, and TASK-B and TASK-C headless in that session (`cn -p --resume`
 * carries on in the newest one). */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS, type Step, SUMMARY } from "../fake/script.ts";
import type { Conversation, ToolCallReply } from "../fake/types.ts";

/** The subagent's name, as its tool's `subagent_name` takes it. */
const HELPER = "general-helper";
const TUI = join(dirname(fileURLToPath(import.meta.url)), "continue-tui.ts");
/** No telemetry, and no `npm i -g` of a newer release behind the harness's back. */
const ENV = { CONTINUE_METRICS_ENABLED: "0", CONTINUE_CLI_ENABLE_TELEMETRY: "0", CONTINUE_CLI_AUTO_UPDATED: "1" };

/** Continue's Read and Write take `filepath`, which the script's generic names do not cover. */
function encode(step: Step, _conv: Conversation, dir: string): ToolCallReply | null {
  switch (step.kind) {
    case "read":
      return { name: "Read", args: { filepath: join(dir, step.file) } };
    case "write":
      return { name: "Write", args: { filepath: join(dir, step.file), content: step.content } };
    case "subagent":
      return { name: "Subagent", args: { description: step.description, prompt: step.prompt, subagent_name: HELPER } };
    default:
      return null;
  }
}

function config(url: string): string {
  const model = (name: string, roles: string, extra = "") =>
    `  - name: ${name}\n    provider: openai\n    model: fake-coder\n    apiBase: ${url}/v1\n    apiKey: dummy\n    roles: [${roles}]\n    capabilities: [tool_use]\n${extra}`;
  return [
    "name: cairn harness",
    "version: 1.0.0",
    "schema: v1",
    "models:",
    model("fake-coder", "chat, edit, apply, summarize"),
    model(HELPER, "subagent", "    chatOptions:\n      baseSystemMessage: You count lines of files.\n"),
  ].join("\n");
}

export const cont: AgentDriver = {
  name: "continue",
  pkg: "@continuedev/cli",
  bin: "cn",
  protocols: [chat],
  script: {
    subagents: true,
    tools: { subagent: ["Subagent"] },
    encode,
    // Its compaction asks, in the user's slot, for "a concise summary of our conversation so far".
    side: (conv) =>
      /concise summary of our conversation/i.test(conv.msgs.at(-1)?.text ?? "") ? { text: SUMMARY } : null,
  },
  extra: (_method, path) =>
    path.startsWith("/v1/models") ? { object: "list", data: [{ id: "fake-coder", object: "model" }] } : null,
  async run(ctx) {
    const dir = join(ctx.home, ".continue");
    mkdirSync(join(dir, "index"), { recursive: true });
    const cfg = join(dir, "config.yaml");
    writeFileSync(cfg, config(ctx.server.url));
    writeFileSync(join(dir, "index", "globalContext.json"), `${JSON.stringify({ autoUpdateCli: false })}\n`);
    const bin = join(ctx.binDir, "cn");
    const sessions = join(dir, "sessions");
    mkdirSync(sessions, { recursive: true });
    // The terminal UI asks for an API key on first use unless it is given a config.
    const tui = (args: string[], messages: string[]) =>
      ctx.exec(
        process.execPath,
        [TUI, sessions, "--", bin, "--auto", "--config", cfg, ...args, "--messages", ...messages],
        { env: ENV, timeoutMs: 300_000 },
      );
    await gitRepo(ctx);
    // A session compacted half-way, first, so that the other one is the newest work.
    await tui([], [PROMPTS.B, "/compact", PROMPTS.D]);
    // The Subagent tool works in the terminal UI only: headless, it finds "No active session".
    await tui(["--beta-subagent-tool"], [PROMPTS.A]);
    for (const prompt of [PROMPTS.B, PROMPTS.C])
      await ctx.exec(bin, ["-p", "--auto", "--resume", prompt], { env: ENV, timeoutMs: 240_000 });
  },
  keep: (rel) => /^\.continue\/sessions\/[^/]+\.json$/.test(rel) && !rel.endsWith("/sessions.json"),
  // The index of sessions beside them: not a transcript.
  sidecar: (rel) => rel === ".continue/sessions/sessions.json",
};

/** The project becomes a git repository with an author, so that TASK-D's commit goes through. */
async function gitRepo(ctx: RunContext): Promise<void> {
  writeFileSync(join(ctx.home, ".gitconfig"), "[user]\n\tname = Cairn Harness\n\temail = harness@example.invalid\n");
  await ctx.exec("git", ["init", "-q"]);
}
