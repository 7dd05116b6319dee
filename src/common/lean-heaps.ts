/**
 * How far V8 lets a heap grow between full collections, for a process that has started a long run (a first index's
 * parse pool, or its vector phase's embed worker). By default an old generation may grow to about four times what
 * the last full collection kept before the next one; the threads of a long run keep little alive (at 1 GB the
 * writing thread about 12 MB, the parse worker 16, the embed worker 8), so most of their heaps at the run's peak was
 * garbage waiting for a collection: the parse worker's heap held 50-85 MB, the writing thread's swung between 57
 * and 115 MB while it stored vectors. Twice what was kept, V8's own factor when it optimizes for memory, costs a few
 * more full collections (docs/performance.md, "Peak memory at 1 GB"). The flag is process-wide and read at each
 * full collection, so it holds for every thread from then on.
 */
import { setFlagsFromString } from "node:v8";

let lean = false;

/** Lets every heap of this process grow to twice what its last full collection kept, from now on. */
export function leanHeaps(): void {
  if (lean) return;
  lean = true;
  setFlagsFromString("--heap-growing-percent=100");
}
