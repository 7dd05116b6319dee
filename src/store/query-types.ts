/**
 * What a search asks the store for. A query arrives as data — words and phrases in the index's tokens, filters on
 * columns — and each backend turns it into its own syntax (`sqlite/fts-match.ts` writes SQLite FTS5's), so the layers
 * above never write a query language of a particular database.
 */
import type { EventType, Provider, SessionEvent } from "../topology/types.ts";

/**
 * One term in the index's tokens: a single token (with the word parts of a compound identifier, which also match
 * it), or several tokens that must follow each other (a phrase).
 */
export interface MatchTerm {
  tokens: string[];
  /** For a single compound identifier (`parseTranscript`): its word parts, matched as a phrase of parts. */
  idents: string[] | null;
  /** A bare word (not quoted): it also matches the other forms of the word ("committed" finds "commit"). */
  inflect?: boolean;
}

/** Every group must match (a group matches when any of its terms does); no `none` term may. */
export interface TextMatch {
  all: MatchTerm[][];
  none: MatchTerm[];
}

/** A full-text or filter query, already parsed and validated by `search/`. */
export interface EventQuery {
  /** Words to match in the event's text and identifier parts, or null for filters only. */
  match: TextMatch | null;
  types?: EventType[];
  providers?: Provider[];
  projects?: string[];
  /** Machines and users a session was indexed from (a team index records them; SQLite refuses these). */
  machines?: string[];
  users?: string[];
  sessionPrefix?: string;
  since?: string;
  until?: string;
  /** Substring of `file_path`. */
  file?: string;
  /** Substring of `command` or the event text of commands. */
  command?: string;
  /** Tool name, case-insensitive. */
  tool?: string;
  /** Only events that hold a secret (an `exposes` edge; `kind:secret`). */
  secrets?: boolean;
  /** Event statuses to keep (e.g. `fail` for tests). */
  statuses?: string[];
  /** Subagent and `codex exec` sessions are searched unless this is false. */
  includeSubagents?: boolean;
  limit: number;
}

export interface EventHit {
  event: SessionEvent;
  /** BM25 (lower is better) when the query had text; null for filter-only queries (newest first). */
  score: number | null;
}

/**
 * Where one secret stands in one event's stored text, as the indexer found it: the event's `exposes` edge to the
 * secret entity (`secret:<kind>:<fingerprint>`), never the value. Read by the exits' redaction, which takes the
 * value out of the text by these spans before anything clips or highlights it.
 */
export interface SecretSpans {
  event_id: string;
  session_id: string;
  /** The secret entity's id: `secret:<kind>:<fingerprint>`. */
  secret: string;
  /** `[offset, length]` in the event's text. */
  spans: Array<[number, number]>;
}
