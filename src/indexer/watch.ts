/**
 * Watch mode: file-system notifications trigger an index run shortly after a write; a periodic sweep catches what
 * notifications miss (new folders, renames, platforms without recursive watching). Runs never overlap.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";
import type { TranscriptRoot } from "../readers/roots.ts";
import type { Store } from "../store/types.ts";
import { type IndexResult, indexPathsAsync } from "./indexer.ts";

export interface WatchOptions {
  store: Store;
  paths: ReadonlyArray<string | TranscriptRoot>;
  signal?: AbortSignal;
  onResult?: (r: IndexResult) => void;
  /**
   * Work to do after each run (embedding what it added), finished before the next run starts; true when there is
   * more of it, to be continued after another (quick) run.
   */
  afterRun?: () => Promise<boolean>;
  /** Delay after a notification before indexing, to batch a burst of writes. */
  debounceMs?: number;
  /** Full sweep interval. */
  sweepMs?: number;
}

export async function watchIndex(opts: WatchOptions): Promise<void> {
  const debounce = opts.debounceMs ?? 150;
  const sweep = opts.sweepMs ?? 2_000;
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let again = false;
  let failure: unknown = null;
  let stop: () => void = () => {};
  // Runs never overlap, and stop at a chunk boundary when the signal aborts (a first run can be long).
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const result = await indexPathsAsync({ store: opts.store, paths: opts.paths, signal: opts.signal });
      if (!result.interrupted) opts.onResult?.(result);
      if (!opts.signal?.aborted && (await opts.afterRun?.())) again = true;
    } catch (error) {
      failure = error;
      stop();
    } finally {
      running = false;
    }
    if (again && !opts.signal?.aborted) {
      again = false;
      schedule();
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, debounce);
  };
  const attach = () => {
    for (const p of opts.paths) {
      // A searched folder (HOME) is not watched whole: a recursive watch of it would list every folder under it.
      // The sweep finds what changes there.
      if (typeof p !== "string" && p.search) continue;
      const dir = typeof p === "string" ? p : p.dir;
      if (!existsSync(dir) || watchers.some((w) => (w as FSWatcher & { dir?: string }).dir === dir)) continue;
      try {
        const w = watch(dir, { recursive: true }, () => schedule()) as FSWatcher & { dir?: string };
        w.dir = dir;
        w.on("error", () => {
          w.close();
          watchers.splice(watchers.indexOf(w), 1);
        });
        watchers.push(w);
      } catch {
        // no recursive watching here: the sweep covers it
      }
    }
  };
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
    if (opts.signal?.aborted) return resolve();
    opts.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  void run();
  attach();
  const interval = setInterval(() => {
    attach();
    void run();
  }, sweep);
  await stopped;
  clearInterval(interval);
  if (timer) clearTimeout(timer);
  for (const w of watchers) w.close();
  // Let a run in progress reach its stopping point (and commit) before the caller closes the store.
  while (running) await new Promise((r) => setTimeout(r, 10));
  if (failure) throw failure;
}
