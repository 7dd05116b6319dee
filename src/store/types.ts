/** The store's interface: everything else reads and writes the index through it, never through SQL. */
import type { TopologyBatch } from "../topology/normalize.ts";
import type { TranscriptState } from "../topology/transcript.ts";
import type {
  Edge,
  Entity,
  EventType,
  Problem,
  Provider,
  SessionEvent,
  SessionInfo,
  SessionKind,
} from "../topology/types.ts";
import type { BundleStore } from "./bundle-types.ts";
import type { PreparedBatch } from "./prepare-batch.ts";
import type { ThreadReads } from "./thread-types.ts";

/** What the indexer remembers of one transcript file. */
export interface FileState {
  path: string;
  provider: Provider | null;
  size: number;
  mtime_ms: number;
  inode: number;
  /** Hash of the first min(4 KiB, offset) bytes: a rewritten file is noticed even when it did not shrink. */
  head_hash: string;
  /** Byte offset after the last complete line read. */
  offset: number;
  /** Number of the line at `offset`. */
  line: number;
  state: TranscriptState | null;
  indexed_at: string;
}

export interface SessionRow extends SessionInfo {
  event_count: number;
  prompt_count: number;
  tool_count: number;
  error_count: number;
  test_count: number;
  resume_count: number;
}

export interface SessionFilter {
  provider?: Provider[];
  project?: string[];
  kinds?: SessionKind[];
  since?: string;
  until?: string;
  idPrefix?: string;
  limit?: number;
}

/** A full-text or filter query, already parsed and validated by `search/`. */
export interface EventQuery {
  /** An FTS5 MATCH expression over the `text` and `idents` columns, or null for filters only. */
  match: string | null;
  types?: EventType[];
  providers?: Provider[];
  projects?: string[];
  sessionPrefix?: string;
  since?: string;
  until?: string;
  /** Substring of `file_path`. */
  file?: string;
  /** Substring of `command` or the event text of commands. */
  command?: string;
  /** Tool name, case-insensitive. */
  tool?: string;
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

/** An explicit checkpoint (`cairn checkpoint`), linked to the session's last event when it was recorded. */
export interface CheckpointRow {
  checkpoint_id: string;
  session_id: string;
  event_id: string | null;
  step: number | null;
  label: string | null;
  created_at: string;
}

export interface StoreCounts {
  sessions: number;
  events: number;
  files: number;
  problems: number;
}

export interface Store extends ThreadReads, BundleStore {
  readonly path: string;
  /** Runs `fn` atomically (a savepoint when a group or another transaction is open). */
  transaction<T>(fn: () => T): T;
  /** An outer transaction spanning many files' writes; `transaction` calls inside it become savepoints. */
  beginGroup(): void;
  commitGroup(): void;
  rollbackGroup(): void;
  inGroup(): boolean;

  getFileState(path: string): FileState | undefined;
  /** Size, mtime and inode of every known file, for the one-stat unchanged check without loading parser states. */
  fileStamps(): Map<string, { size: number; mtime_ms: number; inode: number }>;
  putFileState(state: FileState): void;
  /** Removes everything that came from one file (before it is read again from the start). */
  deleteFile(path: string): void;
  writeBatch(sourceFile: string, batch: TopologyBatch, problems: Problem[]): void;
  /** Writes a batch already turned into bound values by `prepareBatch` (possibly in another thread). */
  writePrepared(batch: PreparedBatch): void;
  /** Recounts the per-session totals shown by `cairn sessions`. */
  refreshSessions(sessionIds: Iterable<string>): void;

  getEvent(eventId: string): SessionEvent | undefined;
  /** The event with only the first `chars` characters of its text (tool output can run to megabytes). */
  getEventHead(eventId: string, chars: number): SessionEvent | undefined;
  /** Events whose id starts with the prefix (for ids typed by hand). */
  findEvents(idPrefix: string, limit: number): SessionEvent[];
  sessionEvents(sessionId: string, range?: { from?: number; to?: number }): SessionEvent[];
  getSession(sessionId: string): SessionRow | undefined;
  listSessions(filter: SessionFilter): SessionRow[];
  edgesFrom(id: string): Edge[];
  edgesTo(id: string): Edge[];
  getEntity(entityId: string): Entity | undefined;
  searchEvents(query: EventQuery): EventHit[];
  problems(limit?: number): Problem[];
  /** Records (or replaces, by id) an explicit checkpoint. */
  putCheckpoint(row: CheckpointRow): void;
  /** A session's explicit checkpoints in the order they were recorded. */
  listCheckpoints(sessionId: string): CheckpointRow[];
  /** Row counts; counting events reads the whole events index, so prefer `sessionCount` on hot paths. */
  counts(): StoreCounts;
  sessionCount(): number;
  close(): void;
}
