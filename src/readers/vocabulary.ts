/**
 * The words readers and the rest of cairn share about a transcript's origin. They live here, at the start of the
 * flow, so readers never import from `topology/` (which re-exports them).
 */

/**
 * An agent's id, as `provider:` filters and facets name it (`claude`, `codex`, `pi`, …): one per manifest in the
 * registry (`readers/agents.ts`), which lists them.
 */
export type Provider = string;

export const SESSION_KINDS = ["main", "subagent", "exec", "fork"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/**
 * The kinds of session that are a person's work: one they started (`main`, a non-interactive `exec`), a `fork` they
 * went on in, and a compaction's continuation (a `main` session naming its predecessor). A `subagent` is not: its
 * work belongs to the session that spawned it.
 */
export const WORK_KINDS = ["main", "fork", "exec"] as const satisfies readonly SessionKind[];

export type Meta = Record<string, unknown>;

/** A folder an agent keeps its transcripts in. Here, not in roots.ts, so per-agent folders need not import it back. */
export interface TranscriptRoot {
  provider: Provider;
  dir: string;
  /** Only the files directly in `dir` (a data folder whose subfolders hold other things: OpenCode's snapshots). */
  shallow?: boolean;
  /**
   * `dir` is a file the agent keeps listing the folders its transcripts are in (Crush's `projects.json`, the data
   * folder of each project it ran in): the folders read off its text are the roots, each `shallow`.
   */
  listing?: (text: string) => string[];
  /**
   * Only the files directly in folders of this name under `dir` (VS Code's `chatSessions`, one in each workspace's
   * storage folder beside other extensions' files and databases).
   */
  folder?: string;
  /**
   * Only files of this name, searched for in `dir` and its folders up to `depth` levels below it, for an agent that
   * writes into each project's folder instead of a store of its own (Aider's `.aider.chat.history.md`). The search
   * is bounded (indexer/scan.ts `searchFiles`): hidden, dependency and virtual-environment folders and the inside of
   * a git repository are not searched, and it stops after a fixed number of folders.
   */
  search?: { name: string; depth: number };
}
