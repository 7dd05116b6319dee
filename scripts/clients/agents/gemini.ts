/**
 * Gemini CLI (`@google/gemini-cli`): GOOGLE_GEMINI_BASE_URL at the fake with API-key auth selected in settings (the
 * base URL alone picks gateway auth, which `-p` rejects), `--resume latest` for later turns, and a compression
 * forced by a low `model.compressionThreshold` and one reply that reports a large prompt.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../driver.ts";
import { gemini as geminiProtocol } from "../fake/gemini.ts";
import { PROMPTS } from "../fake/script.ts";
import type { Conversation, Reply } from "../fake/types.ts";

/** The model router asks which model fits the prompt; it wants a JSON verdict. */
export function geminiSide(_conv: Conversation, _path: string, body: unknown): Reply | null {
  const config = (
    body as { generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown } }
  )?.generationConfig;
  if (config?.responseMimeType !== "application/json") return null;
  const schema = JSON.stringify(config.responseJsonSchema ?? config.responseSchema ?? {});
  if (schema.includes("complexity_score"))
    return { text: JSON.stringify({ complexity_reasoning: "A small scripted task.", complexity_score: 10 }) };
  if (schema.includes("model_choice")) return { text: JSON.stringify({ reasoning: "small", model_choice: "flash" }) };
  // Any other structured side question (next-speaker checks, loop detection) gets a neutral answer.
  if (schema.includes("next_speaker"))
    return { text: JSON.stringify({ reasoning: "The model is done.", next_speaker: "user" }) };
  return { text: "{}" };
}

export const gemini: AgentDriver = {
  name: "gemini",
  pkg: "@google/gemini-cli",
  bin: "gemini",
  protocols: [geminiProtocol],
  script: {
    subagents: true,
    compactDuring: "B",
    side: geminiSide,
    // Sub-agents are named: the generalist one can run a shell command.
    encode: (step, conv) => {
      const tool = step.kind === "subagent" ? conv.tools.find((t) => t.name === "invoke_agent") : undefined;
      if (!tool || step.kind !== "subagent") return null;
      const prompt = "prompt" in tool.props ? "prompt" : "query" in tool.props ? "query" : "objective";
      return { name: tool.name, args: { agent_name: "generalist", [prompt]: step.prompt } };
    },
  },
  async run(ctx) {
    const dir = join(ctx.home, ".gemini");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "settings.json"),
      `${JSON.stringify(
        {
          security: { auth: { selectedType: "gemini-api-key" } },
          model: { compressionThreshold: 0.5 },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
        },
        null,
        2,
      )}\n`,
    );
    const env = {
      GOOGLE_GEMINI_BASE_URL: ctx.server.url,
      GEMINI_API_KEY: "dummy",
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    };
    const bin = join(ctx.binDir, "gemini");
    await ctx.exec(bin, ["-p", PROMPTS.A, "--yolo"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.B, "--yolo", "--resume", "latest"], { env });
    await ctx.exec(bin, ["-p", PROMPTS.C, "--yolo", "--resume", "latest"], { env });
  },
  keep: (rel) => /^\.gemini\/tmp\/[^/]+\/(chats\/.*\.jsonl?|logs\.json)$/.test(rel),
  // The project registry (folder → short name) and each project folder's marker naming the folder it is for.
  sidecar: (rel) => /^\.gemini\/(projects\.json|tmp\/[^/]+\/\.project_root)$/.test(rel),
};
