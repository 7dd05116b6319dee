/**
 * Keeps the semantic layer in step with the index: builds the bundles that new events completed, then embeds
 * the bundles that have no vector from the current embedder, in small transactions so that searches (other
 * processes, WAL readers) never wait on it. A different embedder than the one that made the stored vectors
 * starts over: a vector table of its dimension, every bundle pending; until it catches up, search uses what is
 * embedded and words for everything.
 */

import { type Embedder, EmbedderError } from "../embedders/types.ts";
import { BUNDLE_END_CHARS, type PendingBundle, type QueuedAnchor, type VectorUpkeep } from "../store/bundle-types.ts";
import type { ReadonlyStore } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";

/** What keeping vectors current touches: the bundle queue, bundles, vectors, and events to bundle. */
export type VectorStore = VectorUpkeep & Pick<ReadonlyStore, "getEventHead">;

import { buildBundle } from "../store/shared/bundle-text.ts";

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
    const batch = buildBundleBatch(store);
    if (batch === null) return built;
    built += batch.built;
    onProgress?.({ phase: "bundle", done: Math.min(total, built), total });
  }
}

/**
 * Builds the bundles of the next 2,000 queued events, in one transaction: how many, and the last queued row id
 * (every anchor up to it is bundled now); null when none are queued.
 */
function buildBundleBatch(store: VectorStore): { built: number; last: number } | null {
  const queued = store.bundleQueue(2_000);
  if (queued.length === 0) return null;
  const cache = new Map<string, ReturnType<VectorStore["getEventHead"]>>();
  const lookup = (id: string) => {
    // the events a bundle hangs off (a call, a reply) show only their heads: never read a huge output whole
    if (!cache.has(id)) cache.set(id, store.getEventHead(id, BUNDLE_END_CHARS));
    return cache.get(id);
  };
  if (store.eventHeads) readAhead(store.eventHeads.bind(store), queued, cache);
  const rows = queued.flatMap(({ rowid, event }) => buildBundle(rowid, event, lookup) ?? []);
  store.putBundles(
    queued.map((q) => q.rowid),
    rows,
  );
  return { built: rows.length, last: queued[queued.length - 1]!.rowid };
}

/**
 * Reads the events this batch's bundles hang off into `cache`, a level at a time: the parents of results and
 * errors (and their parents, up to the call `buildBundle` looks for) and outcomes' replies. One read per level
 * instead of one per event; an event not found is remembered as missing, as the one-by-one lookup would.
 */
function readAhead(
  heads: NonNullable<VectorStore["eventHeads"]>,
  queued: readonly QueuedAnchor[],
  cache: Map<string, SessionEvent | undefined>,
): void {
  // Calls are looked for above results and errors; replies are read for themselves only.
  let chain: string[] = [];
  const replies: string[] = [];
  for (const { event } of queued) {
    if ((event.event_type === "tool_result" || event.event_type === "error") && event.parent_event_id)
      chain.push(event.parent_event_id);
    const reply = event.event_type === "outcome" ? event.meta["reply"] : undefined;
    if (typeof reply === "string") replies.push(reply);
  }
  let wanted = [...chain, ...replies];
  const above = new Set(chain);
  for (let level = 0; level < 2 && wanted.length > 0; level++) {
    const ids = [...new Set(wanted)].filter((id) => !cache.has(id));
    for (const id of ids) cache.set(id, undefined);
    chain = [];
    for (const e of heads(ids, BUNDLE_END_CHARS)) {
      cache.set(e.event_id, e);
      if (above.has(e.event_id) && e.event_type !== "tool_call" && e.parent_event_id) chain.push(e.parent_event_id);
    }
    wanted = chain;
  }
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

/** Bundles handed to the embedder, and its answer (never rejected: a failure waits to be thrown in turn). */
interface EmbedJob {
  /** The bundle batch whose building handed these over. */
  round: number;
  pending: PendingBundle[];
  answer: Promise<Answer>;
  /** The answer once it came. */
  came?: Answer;
}
type Answer = { vectors: Float32Array[] } | { error: unknown } | "aborted";

export async function refreshVectors(
  store: VectorStore,
  embedder: Embedder | null,
  opts: RefreshOptions = {},
): Promise<RefreshResult> {
  const signal = opts.signal;
  const now = opts.now ?? Date.now;
  const batch = opts.batch ?? 256;
  const queued = store.vectorState().queued;
  const started = now();
  const overBudget = () => opts.budgetMs !== undefined && now() - started > opts.budgetMs;
  let bundled = 0;
  let embedded = 0;
  let reset = false;
  let interrupted = false;
  const embed = (pending: PendingBundle[]): Promise<Answer> =>
    unlessAborted(
      embedder!
        .embed(
          pending.map((p) => p.text),
          "document",
          signal,
        )
        .then(
          (vectors) => ({ vectors }),
          (error: unknown) => ({ error }),
        ),
      signal,
    );
  /** Stores an answer; false when the signal cut it short (a batch cut short is not stored). */
  const keep = async (pending: PendingBundle[], answer: Promise<Answer>, dimension: number) => {
    const got = await answer;
    if (got === "aborted") return false;
    if ("error" in got) throw got.error;
    storeVectors(store, embedder!.id, pending, got.vectors, dimension);
    embedder!.release?.(got.vectors);
    embedded += pending.length;
    return true;
  };

  // An embedder that knows its dimension is agreed on first, and then embeds each batch of bundles once it is
  // built, while the next batch is built and the one before is stored (an embedder on another thread or a server
  // works meanwhile). Bundles reach it in the order of their anchors, as the plain loop below takes them, so the
  // stored vectors and chunks come out the same either way.
  const known = embedder !== null && embedder.dimension !== null ? embedder.dimension : null;
  let early = known !== null;
  if (embedder !== null && known !== null && store.vectorInfo().embedder !== embedder.id) {
    store.resetVectors(embedder.id, known);
    reset = true;
  }
  const jobs: EmbedJob[] = [];
  /**
   * Stores the answers handed over before `round`, in order and in one transaction (each one rewrites the last
   * chunk of sign bits); false when the signal cut one short (those before it are stored).
   */
  const keepBefore = async (round: number, dimension: number): Promise<boolean> => {
    const pending: PendingBundle[] = [];
    const answers: Float32Array[][] = [];
    let cut = false;
    while (jobs.length > 0 && jobs[0]!.round < round) {
      const job = jobs.shift()!;
      const got = await job.answer;
      if (got === "aborted") {
        cut = true;
        break;
      }
      if ("error" in got) throw got.error;
      if (got.vectors.length !== job.pending.length)
        throw new EmbedderError(
          `${embedder!.id} returned ${got.vectors.length} vectors for ${job.pending.length} texts`,
        );
      pending.push(...job.pending);
      answers.push(got.vectors);
    }
    if (pending.length > 0) {
      storeVectors(store, embedder!.id, pending, answers.flat(), dimension);
      for (const a of answers) embedder!.release?.(a);
      embedded += pending.length;
    }
    if (cut) interrupted = true;
    return !cut;
  };
  let cursor = 0;
  for (let round = 0; ; round++) {
    if (signal?.aborted) {
      interrupted = true;
      break;
    }
    const built = buildBundleBatch(store);
    if (built === null) break;
    bundled += built.built;
    opts.onProgress?.({ phase: "bundle", done: Math.min(queued, bundled), total: queued });
    if (early && known !== null) {
      for (;;) {
        const next = store.pendingBundles(batch, cursor);
        const mine = next.filter((p) => p.anchor_rowid <= built.last);
        if (mine.length > 0) {
          const job: EmbedJob = { round, pending: mine, answer: embed(mine) };
          void job.answer.then((came) => {
            job.came = came;
          });
          jobs.push(job);
          cursor = mine[mine.length - 1]!.anchor_rowid;
          // An embedder on this thread is waited for batch by batch, as the plain loop below does.
          if (!embedder!.concurrent && !(await keepBefore(round + 1, known))) break;
        }
        if (mine.length < next.length || next.length < batch) break;
      }
      if (interrupted) break;
      cursor = Math.max(cursor, built.last);
      // One that works elsewhere has this batch now: the one before is stored meanwhile.
      if (!(await keepBefore(round, known))) break;
      // Past the budget, what is built stays pending for the next call.
      if (embedded > 0 && overBudget()) early = false;
    }
    if (signal) await breathe();
  }
  while (!interrupted && jobs.length > 0) {
    const job = jobs.shift()!;
    if (!(await keep(job.pending, job.answer, known!))) interrupted = true;
  }
  if (interrupted) {
    // Answers that came before the signal are kept, in order, up to the first that did not.
    for (const job of jobs) {
      const came = job.came;
      if (came === undefined || came === "aborted" || "error" in came) break;
      await keep(job.pending, job.answer, known!);
    }
    jobs.length = 0;
    const after = embedder === null ? null : store.vectorState();
    const pending = after ? after.bundles - after.embedded : 0;
    return { bundled, embedded, pending, reset, embedder: embedder?.id ?? null, interrupted };
  }

  const state = store.vectorState();
  if (embedder === null) {
    if (state.embedder !== null) store.resetVectors(null, 1);
    return { bundled, embedded: 0, pending: 0, reset: state.embedder !== null, embedder: null, interrupted: false };
  }
  if (state.embedder !== embedder.id) {
    const dimension = embedder.dimension ?? (await embedder.embed(["dimension probe"], "document"))[0]?.length;
    if (!dimension) throw new EmbedderError(`${embedder.id} returned an empty vector`);
    store.resetVectors(embedder.id, dimension);
    reset = true;
  }
  // What is still pending: everything, for an embedder that tells its dimension only when it answers; bundles
  // left by an earlier call (stopped, or past its budget) and those past this call's budget otherwise.
  const current = store.vectorState();
  const total = embedded + current.bundles - current.embedded;
  const dimension = current.dimension!;
  // At least one batch per call, so a small budget still makes progress.
  for (let first = embedded === 0; first || !overBudget(); first = false) {
    if (signal?.aborted) {
      interrupted = true;
      break;
    }
    const pending = store.pendingBundles(batch);
    if (pending.length === 0) break;
    // An embedder may compute in this thread (the static one) or wait on a server: either way Ctrl-C must not
    // wait for the rest, so the batch races the signal.
    if (!(await keep(pending, embed(pending), dimension))) {
      interrupted = true;
      break;
    }
    opts.onProgress?.({ phase: "embed", done: embedded, total });
    if (signal) await breathe();
  }
  // Compaction looks at the slots, and once they grew counts every stored code (a read of the whole vector table):
  // only worth asking when this run changed them. Slots left by deleted events (a pruned file) wait for the next run
  // that bundles or embeds.
  if (queued > 0 || embedded > 0) store.compactVectors();
  const after = store.vectorState();
  return { bundled, embedded, pending: after.bundles - after.embedded, reset, embedder: embedder.id, interrupted };
}

/** Checks an embedder's answer and stores it, marking its bundles embedded. */
function storeVectors(
  store: VectorStore,
  id: string,
  pending: readonly PendingBundle[],
  vectors: readonly Float32Array[],
  dimension: number,
): void {
  if (vectors.length !== pending.length || vectors.some((v) => v.length !== dimension))
    throw new EmbedderError(`${id} returned vectors of another shape than ${dimension} dimensions`);
  // A text with nothing the embedder knows comes back as zeros; stored, it would sit halfway to every query.
  store.putVectors(
    pending.map((p, i) => ({
      anchor_rowid: p.anchor_rowid,
      kind: p.kind,
      vector: vectors[i]!.some((x) => x !== 0) ? vectors[i]! : null,
    })),
  );
}
