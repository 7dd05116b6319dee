/**
 * Watch mode: file-system notifications trigger an index run shortly after a write; a periodic sweep catches what
 * notifications miss (new folders, renames, platforms without recursive watching). Runs never overlap.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";
import type { TranscriptRoot } from "../readers/roots.ts";
import type { Store } from "../store/types.ts";
import { type IndexResult, indexPaths } from "./indexer.ts";

export interface WatchOptions {
  store: Store;
  paths: ReadonlyArray<string | TranscriptRoot>;
  signal?: AbortSignal;
  onResult?: (r: IndexResult) => void;
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
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const result = indexPaths({ store: opts.store, paths: opts.paths });
      opts.onResult?.(result);
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      schedule();
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      run();
    }, debounce);
  };
  const attach = () => {
    for (const p of opts.paths) {
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
  run();
  attach();
  const interval = setInterval(() => {
    attach();
    run();
  }, sweep);
  await new Promise<void>((resolve) => {
    if (opts.signal?.aborted) return resolve();
    opts.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  clearInterval(interval);
  if (timer) clearTimeout(timer);
  for (const w of watchers) w.close();
}
