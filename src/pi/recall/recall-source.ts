/**
 * The seam between the agent's recall tools and cairn's index and resume engine. The tools are registered only
 * when a `RecallSource` is given; both operations are read-only.
 */

export interface RecallSearchRequest {
  /** cairn query language: free text plus prefixes such as `error:`, `file:`, `decision:`. */
  query: string;
  limit: number;
  /** Working directory of the pi session, for sources that rank the current project first. */
  cwd: string;
  /** The current pi session's file, indexed first so the search sees this session too. */
  sessionFile?: string;
  signal?: AbortSignal;
}

export interface RecallHit {
  eventId: string;
  sessionId: string;
  provider: string;
  /** ISO-8601 time of the event. */
  timestamp: string;
  /** The event type, e.g. `error`, `decision`, `tool_call`. */
  kind: string;
  snippet: string;
  /** Event ids of the evidence chain behind the hit (e.g. the tool call behind an error). */
  evidence?: readonly string[];
}

export interface RecallSearchResult {
  hits: readonly RecallHit[];
  /** The embedder that judged meaning (`model:minilm-l6@…`, `static:…`); null when words alone ranked. */
  meaningBy: string | null;
}

export interface RecallBriefRequest {
  /** Session to brief; when absent, the caller's current session (`sessionFile`). */
  sessionId?: string;
  /** The current pi session's file: briefed when no `sessionId` is given, and indexed first either way. */
  sessionFile?: string;
  budgetTokens?: number;
  cwd: string;
  signal?: AbortSignal;
}

export interface RecallBrief {
  markdown: string;
  citedEventIds: readonly string[];
}

export interface RecallSource {
  search(request: RecallSearchRequest): Promise<RecallSearchResult>;
  resumeBrief(request: RecallBriefRequest): Promise<RecallBrief>;
  /** Something the agent should know about the answers (e.g. the index is still being built), if anything. */
  status?(): string | undefined;
}
