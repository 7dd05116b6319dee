/**
 * Keeps the semantic layer in step with the index: builds the bundles that new events completed, then embeds
 * the bundles that have no vector from the current embedder, in small transactions so that searches (other
 * processes, WAL readers) never wait on it. A different embedder than the one that made the stored vectors
 * starts over: a vector table of its dimension, every bundle pending; until it catches up, search uses what is
 * embedded and words for everything.
 */

import { type Embedder, EmbedderError } from "../embedders/types.ts";
import { BUNDLE_END_CHARS, type VectorUpkeep } from "../store/bundle-types.ts";
import type { ReadonlyStore } from "../store/types.ts";

/** What keeping vectors current touches: the bundle queue, bundles, vectors, and events to bundle. */
export type VectorStore = VectorUpkeep & Pick<ReadonlyStore, "getEventHead">;

import { buildBundle } from "./bundles.ts";

export interface VectorProgress {
  phase: "bundle" | "embed";
  done: number;
  total: number;
}

export interface RefreshOptions {
  /** Bundles embedded per call to the embedder (and per transaction). */
  batch?: number;
  signal?: AbortSignal;
  /** Stop embedding once this many ms have passed (after at least one batch; the rest stays pending). */
  budgetMs?: number;
  onProgress?: (p: VectorProgress) => void;
  now?: () => number;
}

export interface RefreshResult {
  bundled: number;
  embedded: number;
  /** Bundles still without a vector. */
  pending: number;
  /** Whether the stored vectors were dropped because the embedder changed. */
  reset: boolean;
  embedder: string | null;
  /** Stopped by the signal between batches: what was embedded is kept, the rest stays pending. */
  interrupted: boolean;
}

/** Builds the bundles of every queued event. Synchronous; one transaction per 2,000 events. */
export function buildQueuedBundles(store: VectorStore, onProgress?: (p: VectorProgress) => void): number {
  let built = 0;
  const total = store.vectorState().queued;
  for (;;) {
    const n = buildBundleBatch(store);
    if (n === null) return built;
    built += n;
    onProgress?.({ phase: "bundle", done: Math.min(total, built), total });
  }
}

/** Builds the bundles of the next 2,000 queued events, in one transaction; null when none are queued. */
function buildBundleBatch(store: VectorStore): number | null {
  const queued = store.bundleQueue(2_000);
  if (queued.length === 0) return null;
  const cache = new Map<string, ReturnType<VectorStore["getEventHead"]>>();
  const lookup = (id: string) => {
    // the events a bundle hangs off (a call, a reply) show only their heads: never read a huge output whole
    if (!cache.has(id)) cache.set(id, store.getEventHead(id, BUNDLE_END_CHARS));
    return cache.get(id);
  };
  const rows = queued.flatMap(({ rowid, event }) => buildBundle(rowid, event, lookup) ?? []);
  store.putBundles(
    queued.map((q) => q.rowid),
    rows,
  );
  return rows.length;
}

/** A turn for the event loop (a Ctrl-C handler) between batches of synchronous work. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `work`'s value, or "aborted" as soon as `signal` aborts. The listener goes once `work` settles: one left behind
 * per batch kept every batch's vectors reachable from the signal (230 MB over 224,565 bundles of a 1 GB index).
 */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | "aborted"> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export async function refreshVectors(
  store: VectorStore,
  embedder: Embedder | null,
  opts: RefreshOptions = {},
): Promise<RefreshResult> {
  const signal = opts.signal;
  let bundled = 0;
  const queued = store.vectorState().queued;
  for (;;) {
    if (signal?.aborted)
      return { bundled, embedded: 0, pending: 0, reset: false, embedder: embedder?.id ?? null, interrupted: true };
    const n = buildBundleBatch(store);
    if (n === null) break;
    bundled += n;
    opts.onProgress?.({ phase: "bundle", done: Math.min(queued, bundled), total: queued });
    if (signal) await breathe();
  }
  const state = store.vectorState();
  if (embedder === null) {
    if (state.embedder !== null) store.resetVectors(null, 1);
    return { bundled, embedded: 0, pending: 0, reset: state.embedder !== null, embedder: null, interrupted: false };
  }
  let reset = false;
  if (state.embedder !== embedder.id) {
    const dimension = embedder.dimension ?? (await embedder.embed(["dimension probe"], "document"))[0]?.length;
    if (!dimension) throw new EmbedderError(`${embedder.id} returned an empty vector`);
    store.resetVectors(embedder.id, dimension);
    reset = true;
  }
  const now = opts.now ?? Date.now;
  const started = now();
  const batch = opts.batch ?? 256;
  const current = store.vectorState();
  const total = current.bundles - current.embedded;
  const dimension = current.dimension;
  let embedded = 0;
  // At least one batch per call, so a small budget still makes progress.
  let interrupted = false;
  for (;;) {
    if (signal?.aborted) {
      interrupted = true;
      break;
    }
    const pending = store.pendingBundles(batch);
    if (pending.length === 0) break;
    // An embedder may compute in this thread (the static one) or wait on a server: either way Ctrl-C must not
    // wait for the rest, so the batch races the signal, and a batch cut short is not stored.
    const vectors = await unlessAborted(
      embedder.embed(
        pending.map((p) => p.text),
        "document",
        signal,
      ),
      signal,
    );
    if (vectors === "aborted") {
      interrupted = true;
      break;
    }
    if (vectors.length !== pending.length || vectors.some((v) => v.length !== dimension))
      throw new EmbedderError(`${embedder.id} returned vectors of another shape than ${dimension} dimensions`);
    // A text with nothing the embedder knows comes back as zeros; stored, it would sit halfway to every query.
    store.putVectors(
      pending.map((p, i) => ({
        anchor_rowid: p.anchor_rowid,
        kind: p.kind,
        vector: vectors[i]!.some((x) => x !== 0) ? vectors[i]! : null,
      })),
    );
    embedded += pending.length;
    opts.onProgress?.({ phase: "embed", done: embedded, total });
    if (opts.budgetMs !== undefined && now() - started > opts.budgetMs) break;
    if (signal) await breathe();
  }
  // Compaction counts every stored code, a read of the whole vector table: only worth it when this run changed
  // them. Slots left by deleted events (a pruned file) wait for the next run that bundles or embeds.
  if (queued > 0 || embedded > 0) store.compactVectors();
  const after = store.vectorState();
  return { bundled, embedded, pending: after.bundles - after.embedded, reset, embedder: embedder.id, interrupted };
}
