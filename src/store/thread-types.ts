/** What the work-thread builder (`src/threads/`) reads from the store. Filled by `sqlite/threads.ts`. */
import type { Entity, Provider, SessionKind } from "../topology/types.ts";

/** The columns of a session that threads need; no counts, so listing every session stays cheap. */
export interface ThreadSessionRow {
  session_id: string;
  provider: Provider;
  kind: SessionKind;
  project: string | null;
  cwd: string | null;
  /** The session's title, or the summary the agent wrote for it when it has no title. */
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  parent_session_id: string | null;
  /** The git remote the agent recorded for the session's repository (Codex does), when known. */
  repository: string | null;
}

/** A session's link to a file, error signature or branch entity, with the number of edges behind it. */
export interface SessionEntityLink {
  session_id: string;
  entity_id: string;
  edges: number;
}

/** One run of a check (test runner, type checker, linter, build) in a session. */
export interface CheckRunRow {
  /** The check's canonical command, or the result text when it has none (topology/check-state.ts `checkKey`). */
  key: string;
  ordinal: number;
  event_id: string;
  status: string | null;
  timestamp: string | null;
  failing_tests: string[];
}

/** How a session ends: its check runs (which are still failing is decided above the store) and its last tool result. */
export interface SessionEnding {
  session_id: string;
  /** Every check run of the session. */
  check_runs: CheckRunRow[];
  last_result: {
    event_id: string;
    status: string | null;
    timestamp: string | null;
    /** The error signature derived from it, when it failed and one was found. */
    signature: string | null;
  } | null;
}

export interface ThreadReads {
  /** Every session, ordered by id. */
  threadSessions(): ThreadSessionRow[];
  /**
   * Every (session, entity) pair behind a `touches`, `fails_with` or `on_branch` edge, with its edge count: one
   * grouped scan of the edge table, never a query per session.
   */
  sessionEntityLinks(): SessionEntityLink[];
  /** The entities with these ids that exist (kind and display), in id order. */
  entitiesByIds(ids: readonly string[]): Entity[];
  /** How each of these sessions ends (sessions missing from the index are left out). */
  sessionEndings(sessionIds: readonly string[]): Map<string, SessionEnding>;
}
