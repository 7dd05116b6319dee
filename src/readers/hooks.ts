/**
 * The agents whose session-start hook cairn can register in, each hook module loaded only when asked for: the hook
 * runs at the start of every session, and loading every reader (`./agents.ts`) would cost each of them.
 */
import type { SessionStartHook } from "./agent.ts";

export const HOOK_LOADERS: Readonly<Record<string, () => Promise<SessionStartHook>>> = {
  claude: async () => (await import("./claude/hook.ts")).claudeHook,
  codex: async () => (await import("./codex/hook.ts")).codexHook,
  copilot: async () => (await import("./copilot/hook.ts")).copilotHook,
  droid: async () => (await import("./droid/hook.ts")).droidHook,
  gemini: async () => (await import("./gemini/hook.ts")).geminiHook,
  qwen: async () => (await import("./qwen/hook.ts")).qwenHook,
};
