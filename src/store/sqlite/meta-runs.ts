/**
 * Small event metas kept in runs (migration 18): the metas of up to `RUN_VALUES` consecutive events of one session,
 * deflated together in a row of `meta_runs`, where each alone was too small to compress (an assistant reply's model
 * and token counts, a tool result's call id). Such an event keeps '' in `meta` and, in `mr`, its run times
 * `RUN_SLOTS` plus its slot (a column of its own: `meta`'s text affinity would turn a number into text); SQL reads
 * the JSON back through `metaOf`. A run counts the events that point into it (`live`); triggers count an event deleted or
 * given another meta, and drop the run when none is left (schema.ts).
 *
 * Metas are JSON, which never holds a raw NUL, so a run is its values joined by NUL. Pi corpus: the metas 20.5 ->
 * about 8 MB (docs/performance.md).
 */

import { deflateRawSync, inflateRawSync } from "node:zlib";
import type Database from "better-sqlite3";
import { isPacked } from "../shared/packed-meta.ts";
import { once } from "./lazy.ts";

/** Most events a run holds: bigger runs compress a little better and cost more to read one value of. */
export const RUN_VALUES = 32;
/** A reference is `run * RUN_SLOTS + slot`. */
export const RUN_SLOTS = 64;
/** Metas shorter than this stay in their row: `{}` and the like cost less there than a reference. */
export const MIN_RUN_CHARS = 16;

/**
 * Whether a meta, in the form the row would keep it, goes into a run: plain JSON (not compressed alone, as a large
 * one is by shared/text-codec.ts), not packed, not tiny.
 */
export function runnable(stored: unknown): stored is string {
  return typeof stored === "string" && stored.length >= MIN_RUN_CHARS && !isPacked(stored) && !stored.includes("\0");
}

export function packRun(values: readonly string[]): Buffer {
  return deflateRawSync(values.join("\0"), { level: 1 });
}

function unpackRun(data: Uint8Array): string[] {
  return inflateRawSync(data).toString("utf8").split("\0");
}

/** Whether an `mr` value is a reference into a run. */
export function isRunRef(mr: unknown): mr is number | bigint {
  return typeof mr === "number" || typeof mr === "bigint";
}

/**
 * How many decoded runs a connection keeps (each a few KB): a search as it is typed reads mostly the rows it read
 * for the previous prefix, and a run decoded again costs about 20 µs (zlib's call, not the bytes).
 */
const CACHED_RUNS = 1024;

/**
 * The runs read last, decoded: a session read in order decodes each run once. Kept with their bytes, which a hit
 * must match: a run is rewritten when a secret is purged from it, and a dropped run's number may come back.
 */
function runCache() {
  const cache = new Map<number, { data: Buffer; values: string[] }>();
  return (run: number, data: Uint8Array | null | undefined): string[] | null => {
    if (!data) return null;
    const hit = cache.get(run);
    if (hit?.data.equals(data)) return hit.values;
    const values = unpackRun(data);
    if (cache.size >= CACHED_RUNS) cache.delete(cache.keys().next().value!);
    cache.set(run, { data: Buffer.from(data), values });
    return values;
  };
}

/** `cairn_meta(ref, data)`: the meta a reference stands for, given its run's data. */
export function registerMetaFunctions(db: Database.Database): void {
  const runs = runCache();
  db.function("cairn_meta", { deterministic: true }, (ref: unknown, data: unknown) => {
    const n = Number(ref);
    const values = runs(Math.floor(n / RUN_SLOTS), data as Uint8Array | null);
    return values?.[n % RUN_SLOTS] ?? null;
  });
}

/** A meta column's value as its reader sees it, in SQL (`t`: the table or its alias). */
export const metaOf = (t: string) =>
  `CASE WHEN ${t}.mr IS NULL THEN ${t}.meta ELSE cairn_meta(${t}.mr, (SELECT r.data FROM meta_runs r WHERE r.run = ${t}.mr / ${RUN_SLOTS})) END`;

/**
 * The runs one batch of the writer fills: each new event's meta gets a slot as the event is inserted, and the
 * runs are written when the batch ends (`flush`), before anything else reads them.
 */
export function createRunWriter(db: Database.Database) {
  const nextRun = once(() => db.prepare("SELECT coalesce(max(run), 0) + 1 FROM meta_runs").pluck());
  const insertRun = once(() => db.prepare("INSERT INTO meta_runs(run, data, live) VALUES (?, ?, ?)"));
  const runData = once(() => db.prepare("SELECT data FROM meta_runs WHERE run = ?").pluck());
  type Open = { run: number; session: unknown; values: string[]; live: number };
  const open = new Map<number, Open>();
  let current: Open | null = null;
  let next = 0;
  const written = runCache();

  return {
    /** A slot for the meta of an event of `session`; the reference the row keeps. */
    slot(session: unknown, meta: string): number {
      if (current === null || current.session !== session || current.values.length >= RUN_VALUES) {
        if (next === 0) next = nextRun().get() as number;
        current = { run: next++, session, values: [], live: 0 };
        open.set(current.run, current);
      }
      current.values.push(meta);
      current.live++;
      return current.run * RUN_SLOTS + current.values.length - 1;
    },
    /** The slot just given went unused (the event was already there): it stays empty. */
    unused(ref: number): void {
      const run = open.get(Math.floor(ref / RUN_SLOTS));
      if (!run) return;
      run.values[ref % RUN_SLOTS] = "";
      run.live--;
    },
    /** An event stops pointing into a run not yet written (the triggers count the written ones). */
    released(ref: number | bigint): void {
      const run = open.get(Math.floor(Number(ref) / RUN_SLOTS));
      if (run) run.live--;
    },
    /** The meta a reference stands for, from a run of this batch or the index. */
    read(ref: number | bigint): string | null {
      const n = Number(ref);
      const run = Math.floor(n / RUN_SLOTS);
      const values = open.get(run)?.values ?? written(run, runData().get(run) as Uint8Array | undefined);
      return values?.[n % RUN_SLOTS] ?? null;
    },
    /** Writes the batch's runs (those any event still points into). */
    flush(): void {
      for (const r of open.values()) if (r.live > 0) insertRun().run(r.run, packRun(r.values), r.live);
      open.clear();
      current = null;
      next = 0;
    },
  };
}

/**
 * Rewrites one slot of a written run: a purged secret leaves no copy in the run its event's meta came from.
 * Returns the form the row keeps: the same reference when the new meta fits a run, else the meta itself (the row
 * then leaves the run, and the slot is left empty).
 */
export function createRunRewriter(db: Database.Database) {
  const get = once(() => db.prepare("SELECT data FROM meta_runs WHERE run = ?").pluck());
  const put = once(() => db.prepare("UPDATE meta_runs SET data = ? WHERE run = ?"));
  return (ref: number | bigint, meta: string): number | bigint | string => {
    const n = Number(ref);
    const run = Math.floor(n / RUN_SLOTS);
    const data = get().get(run) as Uint8Array | undefined;
    if (data) {
      const values = unpackRun(data);
      values[n % RUN_SLOTS] = runnable(meta) ? meta : "";
      put().run(packRun(values), run);
    }
    return runnable(meta) ? ref : meta;
  };
}
