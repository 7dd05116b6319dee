/** Where each agent keeps its transcripts, and which files under those folders are transcripts: read off the registry. */
import { AGENTS } from "./agents.ts";
import type { TranscriptRoot } from "./vocabulary.ts";

export type { TranscriptRoot } from "./vocabulary.ts";

/** The agents' own folders, honouring their environment overrides (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …). */
export function defaultRoots(env: Record<string, string | undefined>, home: string): TranscriptRoot[] {
  return AGENTS.flatMap((a) => a.roots(env, home));
}

/**
 * The roots with each listing file (`TranscriptRoot.listing`) replaced by the folders it names. `read` gives a file's
 * text, or null when there is none (the agent never ran): readers stay off the file system.
 */
export function expandListings(
  roots: readonly TranscriptRoot[],
  read: (path: string) => string | null,
): TranscriptRoot[] {
  return roots.flatMap((r) => {
    if (!r.listing) return [r];
    const text = read(r.dir);
    return text === null ? [] : r.listing(text).map((dir) => ({ provider: r.provider, dir, shallow: true }));
  });
}

/**
 * Whether a file name under a root is a transcript (not an index, metadata sidecar or settings file); with its
 * path, also not a file an agent says is none although named like one.
 */
export function isTranscriptFile(name: string, path?: string): boolean {
  if (path !== undefined && AGENTS.some((a) => a.notTranscript?.(path) === true)) return false;
  if (name.endsWith(".jsonl")) return !name.endsWith(".meta.jsonl") && !AGENTS.some((a) => a.sidecarFile?.(name));
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
