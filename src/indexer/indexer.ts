/**
 * The incremental indexer. Per file it keeps size, mtime, inode, a hash of the first bytes, the offset after the
 * last complete line and the parser state there. Unchanged file: one stat. Grown file: only the new bytes, each
 * chunk committed together with its new offset and state (a crash resumes at the last commit). Shrunk or
 * rewritten file: forgotten and read again, in one transaction.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { TranscriptRoot } from "../readers/roots.ts";
import type { FileState, Store } from "../store/types.ts";
import { canResume } from "../topology/transcript.ts";
import { type BatchSource, inThreadSource } from "./batch-source.ts";
import { type ParsePool, startParsePool } from "./parse-pool.ts";
import { emptyBatch } from "./read-file.ts";
import { findTranscripts } from "./scan.ts";

const HEAD_BYTES = 4096;
const GROUP_BYTES = 64 * 1024 * 1024;
const GROUP_MS = 2_000;
/** Below this many new bytes a parse worker costs more to start than it saves. */
const WORKER_MIN_BYTES = 16 * 1024 * 1024;
/**
 * Read chunk for worker-parsed files: with two threads holding chunks (one parsing, one writing, a couple queued
 * between), smaller chunks keep peak memory where the single-thread indexer had it.
 */
const WORKER_CHUNK = 1024 * 1024;

export type FileOutcome = "unchanged" | "appended" | "new" | "rewritten" | "unreadable" | "unrecognized";

export interface FileResult {
  path: string;
  outcome: FileOutcome;
  bytes: number;
  events: number;
  problems: number;
  error?: string;
}

export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
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
  /** Parse new files on a worker thread while this one writes (default: when it pays off). */
  parallel?: boolean;
}

export interface IndexResult {
  files: number;
  changed: number;
  unchanged: number;
  rewritten: number;
  bytes: number;
  events: number;
  problems: number;
  sessions: number;
  ms: number;
  errors: Array<{ path: string; message: string }>;
}

export function listTranscripts(paths: IndexOptions["paths"]): string[] {
  const files = new Set<string>();
  for (const p of paths) {
    const dir = typeof p === "string" ? p : p.dir;
    if (!existsSync(dir)) continue;
    for (const f of findTranscripts(dir)) files.add(f);
  }
  return [...files].sort();
}

export function indexPaths(opts: IndexOptions): IndexResult {
  const t0 = Date.now();
  const files = listTranscripts(opts.paths);
  const stats = files.map((f) => {
    try {
      return statSync(f);
    } catch {
      return null;
    }
  });
  const sizes = stats.map((st) => st?.size ?? 0);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  const result: IndexResult = {
    files: files.length,
    changed: 0,
    unchanged: 0,
    rewritten: 0,
    bytes: 0,
    events: 0,
    problems: 0,
    sessions: 0,
    ms: 0,
    errors: [],
  };
  let bytesDone = 0;
  // Files are written in groups, one transaction per group: every commit makes SQLite (and FTS5 in particular)
  // flush and merge, so committing per small file costs more than the writing. A crash loses at most one group;
  // each file's offset and state are committed with its events, so the next run resumes consistently.
  let group: { open: boolean; bytes: number; since: number } = { open: false, bytes: 0, since: 0 };
  const store = opts.store;
  const commitGroup = () => {
    if (group.open) store.commitGroup();
    group = { open: false, bytes: 0, since: 0 };
  };
  // One query for every file's stamp: an unchanged file then costs its stat and nothing else.
  const stamps = store.fileStamps();
  const pool = startPoolFor(files, stats, stamps, opts);
  try {
    files.forEach((path, i) => {
      const stamp = stamps.get(path);
      const st = stats[i];
      if (stamp && st) {
        if (stamp.size === st.size && stamp.mtime_ms === st.mtimeMs && stamp.inode === st.ino) {
          result.unchanged++;
          bytesDone += sizes[i] ?? 0;
          opts.onFile?.({ path, outcome: "unchanged", bytes: 0, events: 0, problems: 0 });
          opts.onProgress?.({ filesDone: i + 1, filesTotal: files.length, bytesDone, bytesTotal });
          return;
        }
      }
      if (!group.open) {
        store.beginGroup();
        group = { open: true, bytes: 0, since: Date.now() };
      }
      let r: FileResult;
      try {
        const queued = pool?.isNext(path) ?? false;
        r = indexFile(store, path, opts, queued && pool ? pool.source : inThreadSource);
        // The file was queued but turned out unreadable or unchanged: its parsed chunks are not wanted.
        if (queued && pool?.isNext(path)) pool.skip(path);
      } catch (error) {
        store.rollbackGroup();
        group = { open: false, bytes: 0, since: 0 };
        throw error;
      }
      group.bytes += r.bytes;
      if (group.bytes >= GROUP_BYTES || Date.now() - group.since >= GROUP_MS) commitGroup();
      bytesDone += sizes[i] ?? 0;
      if (r.outcome === "unchanged") result.unchanged++;
      else if (r.outcome === "unreadable") result.errors.push({ path, message: r.error ?? "unreadable" });
      else result.changed++;
      if (r.outcome === "rewritten") result.rewritten++;
      result.bytes += r.bytes;
      result.events += r.events;
      result.problems += r.problems;
      opts.onFile?.(r);
      opts.onProgress?.({ filesDone: i + 1, filesTotal: files.length, bytesDone, bytesTotal });
    });
  } finally {
    void pool?.close();
  }
  commitGroup();
  result.sessions = opts.store.sessionCount();
  result.ms = Date.now() - t0;
  return result;
}

/**
 * Starts a parse worker for the files this run has never seen, when there are enough of their bytes to pay for
 * it and a second core to run it on. Files already indexed (appends, rewrites) stay on this thread: they are
 * usually small, and a rewrite must delete before it reads.
 */
function startPoolFor(
  files: string[],
  stats: Array<Stats | null>,
  stamps: Map<string, unknown>,
  opts: IndexOptions,
): ParsePool | undefined {
  if (opts.parallel === false || (opts.parallel === undefined && availableParallelism() < 2)) return undefined;
  const fresh: string[] = [];
  let bytes = 0;
  files.forEach((f, i) => {
    const st = stats[i];
    if (st && !stamps.has(f)) {
      fresh.push(f);
      bytes += st.size;
    }
  });
  if (fresh.length === 0 || (opts.parallel === undefined && bytes < WORKER_MIN_BYTES)) return undefined;
  const pool = startParsePool();
  pool.enqueue(
    fresh.map((path) => ({ path, offset: 0, line: 1, state: null, chunkBytes: opts.chunkBytes ?? WORKER_CHUNK })),
  );
  return pool;
}

/**
 * Runs `fn` atomically: inside an open group the group's transaction already does that, and a savepoint would
 * make FTS5 flush a small segment every time.
 */
function atomically(store: Store, fn: () => void): void {
  if (store.inGroup()) fn();
  else store.transaction(fn);
}

function headHash(fd: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = length > 0 ? readSync(fd, buf, 0, length, 0) : 0;
  return createHash("sha1").update(buf.subarray(0, n)).digest("hex");
}

export function indexFile(
  store: Store,
  path: string,
  opts: Pick<IndexOptions, "now" | "chunkBytes"> = {},
  source: BatchSource = inThreadSource,
): FileResult {
  const now = opts.now ?? (() => new Date());
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (error) {
    return { path, outcome: "unreadable", bytes: 0, events: 0, problems: 0, error: (error as Error).message };
  }
  const prev = store.getFileState(path);
  if (prev && prev.size === st.size && prev.mtime_ms === st.mtimeMs && prev.inode === st.ino) {
    return { path, outcome: "unchanged", bytes: 0, events: 0, problems: 0 };
  }
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    return { path, outcome: "unreadable", bytes: 0, events: 0, problems: 0, error: (error as Error).message };
  }
  try {
    const sameFile =
      prev !== undefined &&
      canResume(prev.state) &&
      prev.inode === st.ino &&
      st.size >= prev.offset &&
      headHash(fd, Math.min(HEAD_BYTES, prev.offset)) === prev.head_hash;
    const outcome: FileOutcome = sameFile ? "appended" : prev ? "rewritten" : "new";
    let events = 0;
    let problems = 0;
    const touched = new Set<string>();
    const base = { path, size: st.size, mtime_ms: st.mtimeMs, inode: st.ino };
    const save = (offset: number, line: number, state: FileState["state"]) => {
      store.putFileState({
        ...base,
        provider: state?.provider ?? null,
        head_hash: headHash(fd, Math.min(HEAD_BYTES, offset)),
        offset,
        line,
        state,
        indexed_at: now().toISOString(),
      });
    };
    const read = (perChunkTransaction: boolean) => {
      const req = {
        path,
        offset: sameFile ? prev.offset : 0,
        line: sameFile ? prev.line : 1,
        state: sameFile ? prev.state : null,
        chunkBytes: opts.chunkBytes,
      };
      const res = source(req, (chunk) => {
        const write = () => {
          store.writePrepared(chunk.prepared);
          save(chunk.at.offset, chunk.at.line, chunk.at.state);
        };
        if (perChunkTransaction) atomically(store, write);
        else write();
        events += chunk.events;
        problems += chunk.problems;
        for (const id of chunk.prepared.sessionIds) touched.add(id);
      });
      // Nothing consumed (empty file, or only a half-written line): still remember the file.
      if (res.state === null) {
        const unrecognized = st.size > 0 && res.offset === 0;
        if (unrecognized) problems++;
        const write = () => {
          if (unrecognized) {
            store.writeBatch(path, emptyBatch(), [
              { source_file: path, source_line: 1, reason: "not a Claude Code, Codex or pi transcript", excerpt: "" },
            ]);
          }
          save(0, 1, null);
        };
        if (perChunkTransaction) atomically(store, write);
        else write();
        return { res, unrecognized };
      }
      if (!sameFile || res.offset === (sameFile ? prev.offset : 0)) save(res.offset, res.line, res.state);
      return { res, unrecognized: false };
    };
    let out: ReturnType<typeof read>;
    if (outcome === "rewritten") {
      out = store.transaction(() => {
        store.deleteFile(path);
        return read(false);
      });
    } else out = read(true);
    if (touched.size > 0) atomically(store, () => store.refreshSessions(touched));
    return { path, outcome: out.unrecognized ? "unrecognized" : outcome, bytes: out.res.bytesRead, events, problems };
  } finally {
    closeSync(fd);
  }
}
