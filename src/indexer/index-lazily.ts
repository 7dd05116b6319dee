/**
 * An index run that loads the indexer only when there is something to index. Most runs (a watcher's tick, a
 * `cairn index` an hour later) find every file unchanged: those end after the scan, with the same result the full
 * indexer would give, and never load the readers, the normalizer or the batch writer.
 */
import type { IndexOptions, IndexResult } from "./indexer.ts";
import { idleGone, planRun, type RunPlan } from "./plan.ts";

/** `indexPathsAsync` with a signal, `indexPaths` without one; the indexer is loaded only when a file changed. */
export async function indexLazily(opts: IndexOptions & { signal?: AbortSignal }): Promise<IndexResult> {
  const plan = planRun(opts.store, opts.paths, opts.listed);
  const gone = idleGone(plan);
  if (gone !== null && !opts.signal?.aborted) return idleResult(opts, plan, gone);
  const { indexPaths, indexPathsAsync } = await import("./indexer.ts");
  return opts.signal ? indexPathsAsync({ ...opts, plan }) : indexPaths({ ...opts, plan });
}

/** What the indexer reports for a run where every file was unchanged, with the same callbacks. */
function idleResult(opts: IndexOptions, plan: RunPlan, gone: number): IndexResult {
  const n = plan.files.length;
  plan.files.forEach((path, i) => {
    opts.onFile?.({ path, outcome: "unchanged", bytes: 0, events: 0, problems: 0 });
    opts.onProgress?.({ filesDone: i + 1, filesTotal: n, bytesDone: 0, bytesTotal: 0 });
  });
  return idleIndexResult(n, opts.store.sessionCount(), gone, plan.started);
}

/** What the indexer reports for a run of `files` files that found every one unchanged. */
export function idleIndexResult(files: number, sessions: number, gone: number, started: number): IndexResult {
  return {
    files,
    changed: 0,
    unchanged: files,
    rewritten: 0,
    bytes: 0,
    events: 0,
    problems: 0,
    sessions,
    gone,
    moved: 0,
    filesDone: files,
    interrupted: false,
    ms: Date.now() - started,
    errors: [],
  };
}
