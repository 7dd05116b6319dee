/**
 * The incremental indexer over folders of transcripts. Per file it keeps size, mtime, inode, hashes of the bytes
 * at the start and just before the offset read to, that offset and the parser state there (`index-file.ts`).
 * Files are written in groups, one transaction each; a run is a generator that yields at every chunk written, so
 * `indexPathsAsync` can give the event loop a turn (Ctrl-C) and stop at the next chunk with everything written so
 * far committed and resumable.
 */
import type { Stats } from "node:fs";
import { availableParallelism } from "node:os";
import type { TranscriptRoot } from "../readers/roots.ts";
import type { FileStamp, Store } from "../store/types.ts";
import { inThreadSource } from "./batch-source.ts";
import { applySourceChanges, findSourceChanges } from "./gone-and-moved.ts";
import { type FileResult, indexFileSteps } from "./index-file.ts";
import { type ParsePool, startParsePool } from "./parse-pool.ts";
import { planRun, type RunPlan, unchanged } from "./plan.ts";
import { fsRepoRemotes, type RepoRemotes } from "./repo-remotes.ts";

export { type FileOutcome, type FileResult, indexFile } from "./index-file.ts";
export { listTranscripts } from "./plan.ts";

const GROUP_BYTES = 64 * 1024 * 1024;
const GROUP_MS = 2_000;
/** Below this many new bytes a parse worker costs more to start than it saves. */
const WORKER_MIN_BYTES = 16 * 1024 * 1024;
/**
 * Read chunk for worker-parsed files: with two threads holding chunks (one parsing, one writing, a couple queued
 * between), smaller chunks keep peak memory where the single-thread indexer had it.
 */
const WORKER_CHUNK = 1024 * 1024;
/** How long `indexPathsAsync` works before it gives the event loop a turn. */
const SLICE_MS = 50;

export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
  /** Bytes read so far, of the bytes this run expects to read (new and changed files; unchanged ones cost nothing). */
  bytesDone: number;
  bytesTotal: number;
}

export interface IndexOptions {
  store: Store;
  /** Folders or files to index (folders are searched for transcripts). */
  paths: ReadonlyArray<string | TranscriptRoot>;
  onProgress?: (p: IndexProgress) => void;
  onFile?: (r: FileResult) => void;
  now?: () => Date;
  chunkBytes?: number;
  /** Scan event text for secrets as it is indexed (default on; `npm run bench -- index` measures it off too). */
  secrets?: boolean;
  /** Parse new files on a worker thread while this one writes (default: when it pays off). */
  parallel?: boolean;
  /** Where sessions' git remotes are read (default: each repository's .git/config on this machine). */
  repos?: RepoRemotes;
  /** The files, stats and stamps already gathered for this run (`planRun`), so they are not gathered twice. */
  plan?: RunPlan;
  /** The transcripts under `paths`, listed by a look just before the run (`index-lazily.ts` lists them else). */
  listed?: readonly string[];
}

export interface IndexResult {
  files: number;
  changed: number;
  unchanged: number;
  rewritten: number;
  bytes: number;
  /** Events added to the index by this run, less those it removed (what the index grew by). */
  events: number;
  problems: number;
  sessions: number;
  /** Transcripts found missing by this run (their sessions are kept, marked as gone). */
  gone: number;
  /** Transcripts found at a new path and carried over. */
  moved: number;
  /** Files this run finished; with `interrupted`, the ones after these were left for the next run. */
  filesDone: number;
  /** The run was stopped (Ctrl-C) at a safe point: what it wrote is committed, and the next run goes on from there. */
  interrupted: boolean;
  ms: number;
  errors: Array<{ path: string; message: string }>;
}

/** Indexes everything under `paths`, to the end. */
export function indexPaths(opts: IndexOptions): IndexResult {
  const run = startRun(opts);
  while (!run.steps.next().done);
  return run.finish();
}

/**
 * Indexes everything under `paths`, giving the event loop a turn every few dozen milliseconds. When `signal`
 * aborts, the run stops at the next chunk boundary: what was written is committed and consistent, the result says
 * `interrupted`, and the next run reads on from there.
 */
export async function indexPathsAsync(opts: IndexOptions & { signal?: AbortSignal }): Promise<IndexResult> {
  const run = startRun(opts);
  let slice = Date.now();
  for (;;) {
    if (opts.signal?.aborted) {
      run.steps.return();
      return run.finish(true);
    }
    if (run.steps.next().done) return run.finish();
    if (Date.now() - slice >= SLICE_MS) {
      await new Promise((r) => setImmediate(r));
      slice = Date.now();
    }
  }
}

function startRun(opts: IndexOptions): { steps: Generator<void, void>; finish(interrupted?: boolean): IndexResult } {
  const t0 = opts.plan?.started ?? Date.now();
  const result: IndexResult = {
    files: 0,
    changed: 0,
    unchanged: 0,
    rewritten: 0,
    bytes: 0,
    events: 0,
    problems: 0,
    sessions: 0,
    gone: 0,
    moved: 0,
    filesDone: 0,
    interrupted: false,
    ms: 0,
    errors: [],
  };
  return {
    steps: runSteps(opts, result),
    finish(interrupted = false) {
      result.interrupted = interrupted;
      result.sessions = opts.store.sessionCount();
      result.ms = Date.now() - t0;
      return result;
    },
  };
}

function* runSteps(opts: IndexOptions, result: IndexResult): Generator<void, void> {
  const store = opts.store;
  const now = opts.now ?? (() => new Date());
  const repos = opts.repos ?? fsRepoRemotes();
  const { files, stats, stamps, roots, unreadable } = opts.plan ?? planRun(store, opts.paths);
  result.files = files.length;
  result.errors.push(...unreadable);
  const changes = findSourceChanges(
    store,
    roots,
    files,
    stats,
    stamps,
    unreadable.map((u) => u.path),
  );
  if (changes.moved.length + changes.gone.length + changes.back.length > 0)
    store.transaction(() => applySourceChanges(store, changes, now()));
  result.gone = changes.gone.length + changes.stillGone;
  result.moved = changes.moved.length;

  const work = files.map((_, i) => expectedBytes(stats[i] ?? null, stamps.get(files[i]!)));
  const progress: IndexProgress = {
    filesDone: 0,
    filesTotal: files.length,
    bytesDone: 0,
    bytesTotal: work.reduce((a, b) => a + b, 0),
  };
  const report = (doneBefore: number, inFile: number) => {
    progress.bytesDone = doneBefore + inFile;
    progress.bytesTotal = Math.max(progress.bytesTotal, progress.bytesDone);
    opts.onProgress?.(progress);
  };
  // Files are written in groups, one transaction per group: every commit makes SQLite (and FTS5 in particular)
  // flush and merge, so committing per small file costs more than the writing. A group also ends mid-file once it
  // holds enough: every chunk is written with the file's position, so a commit anywhere is consistent.
  let group = { open: false, bytes: 0, since: 0 };
  const commitGroup = () => {
    if (group.open) store.commitGroup();
    group = { open: false, bytes: 0, since: 0 };
  };
  const groupFull = () => group.bytes >= GROUP_BYTES || Date.now() - group.since >= GROUP_MS;
  const pool = startPoolFor(files, stats, stamps, opts);
  let failed = false;
  try {
    for (let i = 0; i < files.length; i++) {
      const path = files[i]!;
      const stamp = stamps.get(path);
      const st = stats[i];
      const doneBefore = progress.bytesDone;
      if (unchanged(stamp, st)) {
        result.unchanged++;
        opts.onFile?.({ path, outcome: "unchanged", bytes: 0, events: 0, problems: 0 });
      } else {
        if (!group.open) {
          store.beginGroup();
          group = { open: true, bytes: 0, since: Date.now() };
        }
        const queued = pool?.isNext(path) ?? false;
        let read = 0;
        const r: FileResult = yield* indexFileSteps(
          store,
          path,
          {
            now,
            chunkBytes: opts.chunkBytes,
            secrets: opts.secrets,
            tally: result,
            repos,
            onBytes(bytes, settle) {
              group.bytes += bytes - read;
              read = bytes;
              report(doneBefore, bytes);
              if (groupFull()) {
                settle();
                commitGroup();
              }
              if (!group.open) {
                store.beginGroup();
                group = { open: true, bytes: 0, since: Date.now() };
              }
            },
          },
          queued && pool ? pool.source : inThreadSource,
        );
        // The file was queued but turned out unreadable or unchanged: its parsed chunks are not wanted.
        if (queued && pool?.isNext(path)) pool.skip(path);
        if (groupFull()) commitGroup();
        if (r.outcome === "unchanged") result.unchanged++;
        else if (r.outcome === "unreadable") result.errors.push({ path, message: r.error ?? "unreadable" });
        else result.changed++;
        if (r.outcome === "rewritten") result.rewritten++;
        opts.onFile?.(r);
      }
      progress.filesDone = i + 1;
      result.filesDone = i + 1;
      report(doneBefore + (work[i] ?? 0), 0);
      yield;
    }
  } catch (error) {
    failed = true;
    store.rollbackGroup();
    throw error;
  } finally {
    // Reached on completion and when the caller stops the run between chunks: keep what was written.
    if (!failed) commitGroup();
    void pool?.close();
  }
}

/** The bytes a file is expected to cost: all of a new one, what a grown one gained, nothing for an unchanged one. */
function expectedBytes(st: Stats | null, stamp: FileStamp | undefined): number {
  if (!st) return 0;
  if (!stamp) return st.size;
  if (!stamp.current) return st.size;
  if (stamp.size === st.size && stamp.inode === st.ino) return 0;
  return st.size > stamp.size ? st.size - stamp.size : st.size;
}

/**
 * Starts a parse worker for the files this run has never seen (or must read again from the start), when there are enough of their bytes to pay for
 * it and a second core to run it on. Files already indexed (appends, rewrites) stay on this thread: they are
 * usually small, and a rewrite must delete before it reads.
 */
function startPoolFor(
  files: string[],
  stats: Array<Stats | null>,
  stamps: Map<string, FileStamp>,
  opts: IndexOptions,
): ParsePool | undefined {
  if (opts.parallel === false || (opts.parallel === undefined && availableParallelism() < 2)) return undefined;
  const fresh: string[] = [];
  let bytes = 0;
  files.forEach((f, i) => {
    const st = stats[i];
    // A file derived by an older normalizer is read again from its start, like a new one.
    if (st && !stamps.get(f)?.current) {
      fresh.push(f);
      bytes += st.size;
    }
  });
  if (fresh.length === 0 || (opts.parallel === undefined && bytes < WORKER_MIN_BYTES)) return undefined;
  const pool = startParsePool();
  pool.enqueue(
    fresh.map((path) => ({
      path,
      offset: 0,
      line: 1,
      state: null,
      chunkBytes: opts.chunkBytes ?? WORKER_CHUNK,
      secrets: opts.secrets,
    })),
  );
  return pool;
}
