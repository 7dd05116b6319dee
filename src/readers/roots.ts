/** Where each agent keeps its transcripts, and which files under those folders are transcripts. */
import { join } from "node:path";
import { clineRoots } from "./cline/roots.ts";
import { copilotRoots } from "./copilot/roots.ts";
import { droidRoots } from "./droid/roots.ts";
import { geminiRoots } from "./gemini/roots.ts";
import { opencodeRoots } from "./opencode/roots.ts";
import { qwenRoots } from "./qwen/roots.ts";
import type { TranscriptRoot } from "./vocabulary.ts";

export type { TranscriptRoot } from "./vocabulary.ts";

/**
 * The agents' own folders, honouring their environment overrides: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
 * `PI_CODING_AGENT_DIR` (and `PI_AGENT_DIR`, which some tools use for the same thing).
 */
export function defaultRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  const roots: TranscriptRoot[] = [];
  const claude = env["CLAUDE_CONFIG_DIR"];
  if (claude)
    for (const dir of claude.split(",")) roots.push({ provider: "claude", dir: join(dir.trim(), "projects") });
  else {
    roots.push({ provider: "claude", dir: join(home, ".claude", "projects") });
    roots.push({ provider: "claude", dir: join(home, ".config", "claude", "projects") });
  }
  const codex = env["CODEX_HOME"] || join(home, ".codex");
  roots.push({ provider: "codex", dir: join(codex, "sessions") });
  roots.push({ provider: "codex", dir: join(codex, "archived_sessions") });
  const pi = env["PI_CODING_AGENT_DIR"] || env["PI_AGENT_DIR"] || join(home, ".pi", "agent");
  roots.push({ provider: "pi", dir: join(pi, "sessions") });
  roots.push(...geminiRoots(env, home));
  roots.push(...qwenRoots(env, home));
  roots.push(...copilotRoots(env, home));
  roots.push(...opencodeRoots(env, home));
  roots.push(...clineRoots(home));
  roots.push(...droidRoots(home));
  return roots;
}

/** Whether a file name under a root is a transcript (not an index, metadata sidecar or settings file). */
export function isTranscriptFile(name: string): boolean {
  if (name.endsWith(".jsonl")) return !name.endsWith(".meta.jsonl");
  // OpenCode's and Kilo Code's databases (`opencode.db`, or `opencode-<channel>.db` for a non-release channel).
  if (/^(opencode|kilo)(-[\w.-]+)?\.db$/.test(name)) return true;
  // Cline's sessions (the `<id>.json` beside each is metadata, not a transcript).
  if (name.endsWith(".messages.json")) return true;
  // Codex's TypeScript-era rollouts and Gemini CLI's pre-JSONL chats are one JSON document each.
  return /^(rollout|session)-.*\.json$/.test(name);
}

/**
 * Each agent's own folders as `defaultRoots` finds them under `home` with no overrides set, and the environment
 * variables that move them — read off `defaultRoots` itself, so that help texts name a new agent's folders too.
 */
export function rootsWithoutOverrides(home: string): { roots: TranscriptRoot[]; overrides: string[] } {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, key) {
        if (typeof key === "string") read.add(key);
        return undefined;
      },
    },
  );
  const roots = defaultRoots(env, home);
  return { roots, overrides: [...read] };
}
