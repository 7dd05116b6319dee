/**
 * The words readers and the rest of cairn share about a transcript's origin. They live here, at the start of the
 * flow, so readers never import from `topology/` (which re-exports them).
 */

/** The agents cairn reads, by the name `provider:` filters and facets use. */
export const PROVIDERS = [
  "claude",
  "codex",
  "pi",
  "gemini",
  "qwen",
  "opencode",
  "kilo",
  "copilot",
  "cline",
  "droid",
] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The longest provider name: columns of provider names pad to it, so a new agent's name keeps them aligned. */
export const PROVIDER_WIDTH = Math.max(...PROVIDERS.map((p) => p.length));

export const SESSION_KINDS = ["main", "subagent", "exec", "fork"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/**
 * The kinds of session that are a person's work: one they started (`main`, a non-interactive `exec`), a `fork` they
 * went on in, and a compaction's continuation (a `main` session naming its predecessor). A `subagent` is not: its
 * work belongs to the session that spawned it.
 */
export const WORK_KINDS = ["main", "fork", "exec"] as const satisfies readonly SessionKind[];

export type Meta = Record<string, unknown>;

/** How each agent is named to people (overview, inspect, messages). */
export const PROVIDER_NAMES: Record<Provider, string> = {
  claude: "Claude Code",
  codex: "Codex",
  pi: "pi",
  gemini: "Gemini CLI",
  qwen: "Qwen Code",
  opencode: "OpenCode",
  kilo: "Kilo Code",
  copilot: "GitHub Copilot CLI",
  cline: "Cline",
  droid: "Factory Droid",
};

/** A folder an agent keeps its transcripts in. Here, not in roots.ts, so per-agent folders need not import it back. */
export interface TranscriptRoot {
  provider: Provider;
  dir: string;
  /** Only the files directly in `dir` (a data folder whose subfolders hold other things: OpenCode's snapshots). */
  shallow?: boolean;
}

/** "Claude Code, Codex, …, Factory Droid": every agent cairn reads, by the name people know it by (help texts). */
export const AGENT_NAMES = PROVIDERS.map((p) => PROVIDER_NAMES[p]).join(", ");

/** `claude|codex|…`: the values the query language's `provider:` takes. */
export const PROVIDER_CHOICES = PROVIDERS.join("|");
