/**
 * Indexing one file: unchanged (one stat), grown (only the new bytes), or rewritten, shrunk or never seen (read
 * from the start, after forgetting what it held). Runs as a generator that yields after each chunk it wrote, with
 * the file's position saved in the same transaction: the caller may commit and stop at any yield, and the next run
 * reads on from there.
 */
import { closeSync, openSync, type Stats } from "node:fs";
import type { FileState, Store } from "../store/types.ts";
import { canResume, isCurrent } from "../topology/transcript.ts";
import { type BatchSource, inThreadSource } from "./batch-source.ts";
import { headHash, stillHolds, tailHash } from "./file-check.ts";
import { emptyBatch, type ReadFileResult } from "./read-file.ts";
import { applyRepoRemotes, type RepoRemotes } from "./repo-remotes.ts";
import { fsReason, statTranscript } from "./scan.ts";

export type FileOutcome = "unchanged" | "appended" | "new" | "rewritten" | "unreadable" | "unrecognized";

export interface FileResult {
  path: string;
  outcome: FileOutcome;
  bytes: number;
  /** Events added to the index, less those removed from it (a rewritten file's old ones). */
  events: number;
  problems: number;
  error?: string;
}

export interface FileOptions {
  now?: () => Date;
  chunkBytes?: number;
  secrets?: boolean;
  /**
   * Called after each chunk with the bytes of this file read so far, and `settle`, which brings the totals of the
   * sessions written so far up to date: call it before committing mid-file, so a run killed after that commit
   * leaves no session whose totals miss events it kept.
   */
  onBytes?: (bytes: number, settle: () => void) => void;
  /** Running totals the file adds to as it goes (so that a run stopped mid-file can say what it kept). */
  tally?: Tally;
  /** Where sessions' repositories are looked up (their git remote names the project across homes). */
  repos?: RepoRemotes;
}

export interface Tally {
  bytes: number;
  events: number;
  problems: number;
}

/** Indexes one file to its end, atomically. */
export function indexFile(
  store: Store,
  path: string,
  opts: FileOptions = {},
  source: BatchSource = inThreadSource,
): FileResult {
  return store.transaction(() => {
    const steps = indexFileSteps(store, path, opts, source);
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
    }
  });
}

/**
 * Indexes one file inside the caller's transaction, yielding after each chunk (a consistent place to commit or
 * stop). Stopping early (`return()`) leaves the file's position at the last chunk written.
 */
export function* indexFileSteps(
  store: Store,
  path: string,
  opts: FileOptions = {},
  source: BatchSource = inThreadSource,
): Generator<void, FileResult> {
  const now = opts.now ?? (() => new Date());
  let st: Stats;
  try {
    st = statTranscript(path);
  } catch (error) {
    return { path, outcome: "unreadable", bytes: 0, events: 0, problems: 0, error: fsReason(error) };
  }
  const prev = store.getFileState(path);
  // An unchanged file whose index was derived by an older reader or normalizer is read again all the same.
  const current = prev?.state === null || prev?.state === undefined || isCurrent(prev.state);
  if (prev && current && prev.size === st.size && prev.mtime_ms === st.mtimeMs && prev.inode === st.ino) {
    return { path, outcome: "unchanged", bytes: 0, events: 0, problems: 0 };
  }
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    return { path, outcome: "unreadable", bytes: 0, events: 0, problems: 0, error: fsReason(error) };
  }
  const touched = new Set<string>();
  const settle = () => {
    if (touched.size === 0) return;
    store.refreshSessions(touched);
    touched.clear();
  };
  let failed = false;
  try {
    const sameFile =
      prev !== undefined && canResume(prev.state) && prev.inode === st.ino && stillHolds(fd, st.size, prev);
    const outcome: FileOutcome = sameFile ? "appended" : prev ? "rewritten" : "new";
    const save = (at: { offset: number; line: number; state: FileState["state"] }, size: number) => {
      store.putFileState({
        path,
        size,
        mtime_ms: st.mtimeMs,
        inode: st.ino,
        provider: at.state?.provider ?? null,
        head_hash: headHash(fd, at.offset),
        tail_hash: tailHash(fd, at.offset),
        offset: at.offset,
        line: at.line,
        state: at.state,
        indexed_at: now().toISOString(),
      });
    };
    const mine: Tally = { bytes: 0, events: 0, problems: 0 };
    const add = (events: number, problems: number, bytes: number) => {
      for (const t of opts.tally ? [mine, opts.tally] : [mine]) {
        t.events += events;
        t.problems += problems;
        t.bytes += bytes;
      }
    };
    if (outcome === "rewritten") add(-store.deleteFile(path), 0, 0);
    const start = sameFile ? prev : { offset: 0, line: 1, state: null };
    const chunks = source({
      path,
      offset: start.offset,
      line: start.line,
      state: start.state,
      chunkBytes: opts.chunkBytes,
      secrets: opts.secrets,
    });
    let res: ReadFileResult;
    for (;;) {
      const next = chunks.next();
      if (next.done) {
        res = next.value;
        break;
      }
      const chunk = next.value;
      if (chunk === null) {
        yield; // the source is still working: nothing to write yet
        continue;
      }
      if (opts.repos) applyRepoRemotes(chunk.prepared.sessions, opts.repos);
      const added = store.writePrepared(chunk.prepared);
      // Saved mid-file, the position records the bytes read as the file's size: if the run stops here, the next
      // one sees a change and reads on from this offset.
      save(chunk.at, chunk.at.offset);
      add(added, chunk.problems, chunk.at.offset - start.offset - mine.bytes);
      for (const id of chunk.prepared.sessionIds) touched.add(id);
      opts.onBytes?.(mine.bytes, settle);
      yield;
    }
    // Nothing recognised (not a transcript): still remember the file, with one problem.
    const unrecognized = res.state === null && st.size > 0 && res.offset === 0;
    if (unrecognized) {
      add(0, 1, 0);
      store.writeBatch(path, emptyBatch(), [
        { source_file: path, source_line: 1, reason: "not a transcript of any agent cairn reads", excerpt: "" },
      ]);
    }
    save(res.state === null ? { offset: 0, line: 1, state: null } : res, st.size);
    // Bytes read but not consumed (a half-written last line) count as read.
    add(0, 0, res.bytesRead - mine.bytes);
    const { events, problems, bytes } = mine;
    return { path, outcome: unrecognized ? "unrecognized" : outcome, bytes, events, problems };
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // Also when the caller stops between chunks: the sessions' totals must match the events kept.
    if (!failed) settle();
    closeSync(fd);
  }
}
