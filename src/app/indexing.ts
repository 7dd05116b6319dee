/**
 * Writing the index: indexing transcripts under the one-writer lock, following them in watch mode, and keeping
 * the semantic layer (bundles and their vectors) current with the embedder chosen for the index.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { CairnError, errorMessage } from "../common/errors.ts";
import { configuredEmbedder, createEmbedder, EMBEDDER_SETTING } from "../embedders/config.ts";
import { type Embedder, type EmbedderConfig, EmbedderError } from "../embedders/types.ts";
import { indexWriteError } from "../indexer/db-path.ts";
import { indexLazily } from "../indexer/index-lazily.ts";
import type { IndexProgress, IndexResult } from "../indexer/indexer.ts";
import { acquireLock, type IndexLock, IndexLockedError, tryLock } from "../indexer/lock.ts";
import type { TranscriptRoot } from "../readers/roots.ts";
import { type RefreshResult, refreshVectors, type VectorProgress } from "../search/vectors.ts";
import { isPgUrl } from "../store/pg/url.ts";
import type { CompactProgress, CompactResult, Store } from "../store/types.ts";
import type { Env } from "./open.ts";

export type { IndexProgress, IndexResult } from "../indexer/indexer.ts";

export type VectorOutcome = { ok: true; result: RefreshResult } | { ok: false; error: string };

export interface IndexRequest {
  /** Files or folders to index; absent for the agents' own folders. Named paths must exist. */
  roots?: ReadonlyArray<string | TranscriptRoot>;
  /** `wait` (default) waits for another writer up to `waitMs`; `try` gives up at once and reports it busy. */
  lock?: "wait" | "try";
  waitMs?: number;
  /** Told once when the lock is held by another process and this one waits. */
  onWait?: (pid: number) => void;
  onProgress?: (p: IndexProgress) => void;
  /** Embed what the run added (default true); a failing embedder never fails the index. */
  embed?: boolean;
  onVectorProgress?: (p: VectorProgress) => void;
  /**
   * Convert the rows an older release wrote to the compact layout (default true; once per index, seconds on a
   * large one, store/sqlite/compact-rows.ts): a refresh before an answer leaves it to the next full run.
   */
  compact?: boolean;
  onCompactProgress?: (p: CompactProgress) => void;
  signal?: AbortSignal;
  /** Parse in a worker thread when the run is large (default true). */
  parallel?: boolean;
  /**
   * The transcripts a look just before listed (`unchangedIndex`) under these roots: taken when the roots are the
   * run's and the lock was free, so the run does not list them again; after a wait they are listed anew.
   */
  listed?: { roots: ReadonlyArray<string | TranscriptRoot>; files: readonly string[] };
}

export interface IndexAnswer {
  /** What the run did, or null when another process held the lock (`busy_pid`). */
  indexed: IndexResult | null;
  busy_pid: number | null;
  /** Null when embedding was not asked for, or the run was interrupted before it. */
  vectors: VectorOutcome | null;
  /** Stopped by the signal (reading or embedding): what was done is committed, the next run goes on from there. */
  interrupted: boolean;
  /** Rows converted to the compressed layout by this run, when it had any to convert. */
  compacted?: CompactResult;
}

export interface WatchRequest {
  roots: ReadonlyArray<string | TranscriptRoot>;
  signal?: AbortSignal;
  onResult?: (r: IndexResult) => void;
  onWait?: (pid: number) => void;
}

export interface EmbedRequest {
  /** Choose (and store) this embedder first; absent keeps the index's choice. */
  config?: EmbedderConfig;
  /** Told once when another process holds the index lock and this one waits. */
  onWait?: (pid: number) => void;
  onProgress?: (p: VectorProgress) => void;
  signal?: AbortSignal;
}

export interface IndexDeps {
  dbPath: string;
  store(): Store;
  env: Env;
  cwd: string;
}

/** Named roots must exist: a mistyped folder is an error, never "indexed 0 files". */
export function checkRoots(roots: ReadonlyArray<string | TranscriptRoot>): void {
  for (const r of roots) {
    const path = typeof r === "string" ? r : r.dir;
    if (typeof r === "string" && !existsSync(path))
      throw new CairnError("usage", `${path} does not exist`, "give a transcript file or a folder that holds some");
  }
}

export async function lockFor(
  deps: IndexDeps,
  req: { lock?: "wait" | "try"; waitMs?: number; onWait?: (pid: number) => void },
) {
  try {
    // The lock file lives beside the database: its folder must exist before the lock can be taken.
    if (deps.dbPath !== ":memory:" && !isPgUrl(deps.dbPath)) mkdirSync(dirname(deps.dbPath), { recursive: true });
    if (req.lock === "try") return tryLock(deps.dbPath);
    return await acquireLock(deps.dbPath, req.waitMs ?? 60_000, (e) => req.onWait?.(e.pid));
  } catch (error) {
    if (error instanceof IndexLockedError) {
      if (req.lock === "try") throw error; // the caller shows what the holder keeps current
      throw new CairnError("index_busy", error.message, "wait for it to finish, or stop it");
    }
    throw indexWriteError(deps.dbPath, error);
  }
}

export async function runIndex(
  deps: IndexDeps,
  roots: ReadonlyArray<string | TranscriptRoot>,
  req: IndexRequest,
): Promise<IndexAnswer> {
  let lock: IndexLock;
  let waited = false;
  try {
    lock = await lockFor(deps, {
      ...req,
      onWait: (pid) => {
        waited = true;
        req.onWait?.(pid);
      },
    });
  } catch (error) {
    if (req.lock === "try" && error instanceof IndexLockedError)
      return { indexed: null, busy_pid: error.pid, vectors: null, interrupted: false };
    throw error;
  }
  try {
    const store = deps.store();
    const opts = {
      store,
      paths: roots,
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
      ...(req.parallel === false ? { parallel: false } : {}),
      ...(req.listed && !waited && JSON.stringify(req.listed.roots) === JSON.stringify(roots)
        ? { listed: req.listed.files }
        : {}),
    };
    // With a signal the run gives the event loop turns, so Ctrl-C stops it at the next chunk. A run that finds
    // nothing changed ends after the scan, without loading the readers (indexer/index-lazily.ts).
    const indexed = await indexLazily(req.signal ? { ...opts, signal: req.signal } : opts);
    if (indexed.interrupted) return { indexed, busy_pid: null, vectors: null, interrupted: true };
    // Rows an older release wrote are converted after the new ones are in: the index answers either way.
    const compacted =
      req.compact !== false && (store.compactPending?.() ?? 0) > 0 ? await compactRows(store, req) : undefined;
    if (compacted?.interrupted) return { indexed, busy_pid: null, vectors: null, interrupted: true, compacted };
    const vectors =
      req.embed === false ? null : await updateVectors(deps, { onProgress: req.onVectorProgress, signal: req.signal });
    return {
      indexed,
      busy_pid: null,
      vectors,
      interrupted: vectors?.ok === true && vectors.result.interrupted,
      ...(compacted ? { compacted } : {}),
    };
  } finally {
    lock.release();
  }
}

/**
 * One batch (a transaction) at a time, with a turn of the event loop between batches: Ctrl-C's handler runs there
 * and the next batch sees the signal, so an interrupted conversion keeps what it converted and the next run goes
 * on. The VACUUM that ends it is one statement and runs to its end (atomic: interrupted, it changes nothing).
 */
async function compactRows(store: Store, req: IndexRequest): Promise<CompactResult | undefined> {
  if (!store.compactRows || !store.compactPending) return undefined;
  const total = store.compactPending();
  const out: CompactResult = { rows: 0, compressed: 0, interrupted: false };
  for (;;) {
    if (req.signal?.aborted) return { ...out, interrupted: true };
    const batch = store.compactRows({ maxBatches: 1 });
    out.rows += batch.rows;
    out.compressed += batch.compressed;
    if (batch.vacuumed !== undefined) out.vacuumed = batch.vacuumed;
    const left = store.compactPending();
    req.onCompactProgress?.({ done: total - left, total });
    if (!batch.interrupted) return out;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * An older index followed by watch mode alone is converted too, for about `budgetMs` between runs; true while rows
 * are left. Each batch is its own transaction, so a stop between runs keeps what was converted.
 */
function convertFor(store: Store, budgetMs: number): boolean {
  if (!store.compactRows || !store.compactPending || store.compactPending() === 0) return false;
  const end = Date.now() + budgetMs;
  for (let more = true; more && Date.now() < end; ) more = store.compactRows({ maxBatches: 1 }).interrupted;
  return store.compactPending() > 0;
}

/**
 * Bundles and embeds what is queued. A failing embedder (an endpoint down, a model missing) never fails the
 * index: words still find everything, and the next run tries again.
 */
export async function updateVectors(
  deps: IndexDeps,
  opts: { budgetMs?: number; onProgress?: ((p: VectorProgress) => void) | undefined; signal?: AbortSignal | undefined },
): Promise<VectorOutcome> {
  let embedder: Embedder | null = null;
  try {
    const store = deps.store();
    embedder = configuredEmbedder(store, deps.env, deps.cwd, { threads: true }).embedder;
    if (upToDate(store, embedder) && !opts.signal?.aborted) {
      const id = embedder?.id ?? null;
      return {
        ok: true,
        result: { bundled: 0, embedded: 0, pending: 0, reset: false, embedder: id, interrupted: false },
      };
    }
    const result = await refreshVectors(store, embedder, {
      ...(opts.budgetMs !== undefined ? { budgetMs: opts.budgetMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  } finally {
    await embedder?.close?.();
  }
}

/**
 * Nothing queued to bundle, nothing waiting for a vector, and the vectors are the configured embedder's: what a
 * refresh would find after counting every bundle (tens of ms on a large index), told by three index lookups.
 */
function upToDate(store: Store, embedder: Embedder | null): boolean {
  if (store.bundleQueue(1).length > 0) return false;
  const info = store.vectorInfo();
  return embedder === null ? info.embedder === null : info.embedder === embedder.id && !info.pending;
}

export async function runWatch(deps: IndexDeps, req: WatchRequest): Promise<void> {
  const lock = await lockFor(deps, { onWait: req.onWait });
  try {
    const store = deps.store();
    const { watchIndex } = await import("../indexer/watch.ts");
    // Embedding runs after each index run, a second at a time, so appends stay quick to show up; the watcher
    // waits for it before the next run, so the two never write at once.
    await watchIndex({
      store,
      paths: req.roots,
      ...(req.signal ? { signal: req.signal } : {}),
      onResult(r) {
        req.onResult?.(r);
      },
      afterRun: async () => {
        const converting = convertFor(store, 1_000);
        const v = await updateVectors(deps, { budgetMs: 1_000, signal: req.signal });
        return converting || (v.ok && v.result.pending > 0 && !v.result.interrupted);
      },
    });
  } finally {
    lock.release();
  }
}

export async function runEmbed(deps: IndexDeps, req: EmbedRequest) {
  const lock = await lockFor(deps, { ...(req.onWait ? { onWait: req.onWait } : {}) });
  try {
    const store = deps.store();
    const { config, embedder } = req.config
      ? await answeringEmbedder(req.config, deps, req.signal)
      : configuredEmbedder(store, deps.env, deps.cwd, { threads: true });
    // Saved once it answered: an endpoint that cannot be reached would otherwise replace a working embedder, and
    // every search would go on by words alone.
    if (req.config) store.putSetting(EMBEDDER_SETTING, JSON.stringify(req.config));
    try {
      const result = await refreshVectors(store, embedder, {
        ...(req.signal ? { signal: req.signal } : {}),
        ...(req.onProgress ? { onProgress: req.onProgress } : {}),
      });
      return { config, ...result };
    } catch (error) {
      if (error instanceof EmbedderError) throw new CairnError("failure", `embedding failed: ${error.message}`);
      throw error;
    } finally {
      await embedder?.close?.();
    }
  } finally {
    lock.release();
  }
}

/** The embedder of a new setting, once it has embedded a word; a CairnError, the setting unsaved, if it cannot. */
async function answeringEmbedder(
  config: EmbedderConfig,
  deps: IndexDeps,
  signal: AbortSignal | undefined,
): Promise<{ config: EmbedderConfig; embedder: Embedder | null }> {
  let embedder: Embedder | null = null;
  try {
    embedder = createEmbedder(config, deps.env, deps.cwd, { threads: true });
    await embedder?.embed(["cairn"], "query", signal);
    return { config, embedder };
  } catch (error) {
    await embedder?.close?.();
    if (!(error instanceof EmbedderError)) throw error;
    throw new CairnError(
      "failure",
      `the embedder did not answer: ${error.message}; the embedder setting is unchanged`,
      "check the URL and model (and CAIRN_EMBED_API_KEY), then run 'cairn embed --embedder …' again",
    );
  }
}

export interface GoneFile {
  path: string;
  gone_at: string;
  sessions: number;
}

/** Forgets the sessions whose transcripts are gone from disk (or, with `dry_run`, lists them). */
export async function runPrune(
  deps: IndexDeps,
  req: { dry_run?: boolean; onWait?: (pid: number) => void },
): Promise<{
  dry_run: boolean;
  files: GoneFile[];
  pruned: { files: number; sessions: number; events: number } | null;
}> {
  const lock = await lockFor(deps, { ...(req.onWait ? { onWait: req.onWait } : {}) });
  try {
    const store = deps.store();
    const files = store.goneFiles();
    if (req.dry_run) return { dry_run: true, files, pruned: null };
    return { dry_run: false, files, pruned: store.transaction(() => store.pruneGone()) };
  } finally {
    lock.release();
  }
}
