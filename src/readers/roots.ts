/** Where each agent keeps its transcripts, and which files under those folders are transcripts: read off the registry. */
import { AGENTS } from "./agents.ts";
import type { TranscriptRoot } from "./vocabulary.ts";

export type { TranscriptRoot } from "./vocabulary.ts";

/** The agents' own folders, honouring their environment overrides (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …). */
export function defaultRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return AGENTS.flatMap((a) => a.roots(env, home));
}

/**
 * Whether a file name under a root is a transcript (not an index, metadata sidecar or settings file); with its
 * path, also not a file an agent says is none although named like one.
 */
export function isTranscriptFile(name: string, path?: string): boolean {
  if (path !== undefined && AGENTS.some((a) => a.notTranscript?.(path) === true)) return false;
  if (name.endsWith(".jsonl")) return !name.endsWith(".meta.jsonl");
  return AGENTS.some((a) => a.transcriptFile?.(name) === true);
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
