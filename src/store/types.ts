/** The store's interface: everything else reads and writes the index through it, never through SQL. */
import type { TopologyBatch } from "../topology/normalizer-state.ts";
import type { TranscriptState } from "../topology/transcript.ts";
import type {
  Edge,
  Entity,
  Problem,
  Provider,
  SessionEvent,
  SessionInfo,
  SessionKind,
  UsageCall,
  UsageRow,
} from "../topology/types.ts";
import type { BundleReads, VectorUpkeep } from "./bundle-types.ts";
import type { EventHit, EventQuery, SecretSpans } from "./query-types.ts";
import type { PreparedBatch } from "./shared/prepare-batch.ts";
import type { ThreadReads } from "./thread-types.ts";

/** What the one-stat check compares, and whether the file was last seen gone. */
export interface FileStamp {
  size: number;
  mtime_ms: number;
  inode: number;
  gone: boolean;
  /** Its events were derived by this version of the normalizer (else the file is read again). */
  current: boolean;
}

export type { EventHit, EventQuery, MatchTerm, SecretSpans, TextMatch } from "./query-types.ts";

/** What the indexer remembers of one transcript file. */
export interface FileState {
  path: string;
  provider: Provider | null;
  size: number;
  mtime_ms: number;
  inode: number;
  /** Hash of the first min(4 KiB, offset) bytes: a rewritten file is noticed even when it did not shrink. */
  head_hash: string;
  /**
   * Hash of the min(4 KiB, offset) bytes that end at `offset`: a file rewritten in place that keeps its head and
   * grows is noticed too. Null for positions saved before it was kept.
   */
  tail_hash: string | null;
  /** Byte offset after the last complete line read. */
  offset: number;
  /** Number of the line at `offset`. */
  line: number;
  state: TranscriptState | null;
  indexed_at: string;
}

export interface SessionRow extends SessionInfo {
  /** The transcript file it was read from is gone (deleted or moved away); its events stay until pruned. */
  source_gone: boolean;
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

/** An explicit checkpoint (`cairn checkpoint`), linked to the session's last event when it was recorded. */
export interface CheckpointRow {
  checkpoint_id: string;
  session_id: string;
  event_id: string | null;
  step: number | null;
  label: string | null;
  created_at: string;
}

export interface UsageCallsOf {
  providers?: readonly string[];
  since?: string;
}

export interface StoreCounts {
  sessions: number;
  events: number;
  files: number;
  problems: number;
}

/**
 * The index as the layers that only read see it: search, threads, resume and the read-only surfaces get this
 * view, so none of them can reach a write (pi's `ReadonlySessionManager` is the pattern).
 */
export interface ReadonlyStore extends ThreadReads, BundleReads {
  readonly path: string;
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
  /** Every secret the indexer found, event by event (few rows: a finding is rare), for redacting what is read. */
  secretSpans(): readonly SecretSpans[];
  /**
   * Reads one slice of what a new handle's first ranked searches would otherwise read for the first time; true
   * while more is left. For a process that will search many times (the terminal UI's search thread), in its idle
   * moments. Absent where there is nothing to get ready.
   */
  warmSearch?(): boolean;
  /** The handle will serve many reads (a terminal UI's): it maps the index file now, not after 2 s (sqlite/read.ts). */
  expectLongUse?(): void;
  problems(limit?: number): Problem[];
  /**
   * Model calls' usage, copies included (the usage report tells them apart), in the order read (by file and line):
   * of some agents (a call's copies are always one agent's), made at or after an ISO time (copies keep their
   * call's time), or all.
   */
  usageCalls(of?: UsageCallsOf): UsageCall[];
  /** A session's usage rows whole, where each was read included: to copy the session to another index. */
  usageRows(sessionId: string): UsageRow[];
  /**
   * Per agent, a number that moves whenever any of its call rows is added, changed or removed (a report keeps what
   * it derived from them under it); null from a store that counts none.
   */
  usageGenerations(): Map<Provider, number> | null;
  /** Size, mtime and inode of every known file, for the one-stat unchanged check without loading parser states. */
  fileStamps(): Map<string, FileStamp>;
  /** A session's explicit checkpoints in the order they were recorded. */
  listCheckpoints(sessionId: string): CheckpointRow[];
  /** Row counts; counting events reads the whole events index, so prefer `sessionCount` on hot paths. */
  counts(): StoreCounts;
  sessionCount(): number;
}

/** The index with its writes: what the indexer and the application layer's write mode hold. */
export interface Store extends ReadonlyStore, VectorUpkeep {
  /** Rewrites these events (and those derived from them, and their sessions' titles) with secrets redacted. */
  redactEvents(eventIds: readonly string[]): number;
  /** Runs `fn` atomically (a savepoint when a group or another transaction is open). */
  transaction<T>(fn: () => T): T;
  /** An outer transaction spanning many files' writes; `transaction` calls inside it become savepoints. */
  beginGroup(): void;
  commitGroup(): void;
  rollbackGroup(): void;
  inGroup(): boolean;

  getFileState(path: string): FileState | undefined;
  /** Saves a file's position; a file saved is present (no longer marked gone). */
  putFileState(state: FileState): void;
  /** Removes everything that came from one file (before it is read again from the start); returns the events removed. */
  deleteFile(path: string): number;
  /** Marks files as gone from disk (their sessions stay, marked `source_gone`), or as back (`at` null). */
  markGone(paths: readonly string[], at: string | null): void;
  /** A transcript moved: everything read from `from` now comes from `file.path`, whose position is `file`. */
  moveFile(from: string, file: FileState): void;
  /** Files marked gone, oldest first, with how many sessions each held. */
  goneFiles(): Array<{ path: string; gone_at: string; sessions: number }>;
  /** Forgets every file marked gone, with its sessions and events. */
  pruneGone(): { files: number; sessions: number; events: number };
  writeBatch(sourceFile: string, batch: TopologyBatch, problems: Problem[]): void;
  /** Writes a batch already turned into bound values by `prepareBatch` (possibly in another thread); returns the events added. */
  writePrepared(batch: PreparedBatch): number;
  /** Event rows written before texts were stored compressed and not converted yet (SQLite only; 0 when none). */
  compactPending?(): number;
  /**
   * Converts those rows in batches, each committed, until done or `maxBatches` have run (SQLite only,
   * store/sqlite/compact-rows.ts); the caller gives Ctrl-C its turn between calls (app/indexing.ts).
   */
  compactRows?(opts?: { maxBatches?: number; batchRowids?: number }): CompactResult;
  /** Recounts the per-session totals shown by `cairn sessions`. */
  refreshSessions(sessionIds: Iterable<string>): void;
  /** Records (or replaces, by id) an explicit checkpoint. */
  putCheckpoint(row: CheckpointRow): void;
  close(): void;
}

/** Rows of the conversion to the compressed layout done so far, of all there were (by rowid span). */
export interface CompactProgress {
  done: number;
  total: number;
}

export interface CompactResult {
  /** Rows looked at, and rows rewritten compressed. */
  rows: number;
  compressed: number;
  /** Stopped before the end: the next run goes on from there. */
  interrupted: boolean;
  /** The conversion finished and the file was rewritten compactly (store/sqlite/compact-rows.ts). */
  vacuumed?: boolean;
}
