/** Keeping the semantic layer current from the CLI: bundling and embedding with a progress line. */
import { configuredEmbedder } from "../embedders/config.ts";
import { type RefreshResult, refreshVectors, type VectorProgress } from "../search/vectors.ts";
import type { Store } from "../store/types.ts";
import type { CliIo } from "./io.ts";

/** A one-line progress display for bundling and embedding (stderr, terminals only). */

export function createVectorProgress(io: CliIo, quiet: boolean): { update(p: VectorProgress): void; done(): void } {
  const tty = io.stderr.isTTY === true && !quiet;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 100 && p.done < p.total) return;
      last = now;
      const label = p.phase === "bundle" ? "building bundles" : "embedding";
      io.stderr.write(`\r${label}: ${p.done}/${p.total}\u001b[K`);
      shown = true;
    },
    done() {
      if (tty && shown) io.stderr.write("\r\u001b[K");
    },
  };
}

/**
 * Bundles and embeds what the run added. A failing embedder (an endpoint down, a model missing) never fails the
 * index: words still find everything, and the next run tries again.
 */
export async function updateVectors(
  store: Store,
  io: CliIo,
  opts: { budgetMs?: number; quiet: boolean },
): Promise<{ ok: true; result: RefreshResult } | { ok: false; error: string }> {
  const progress = createVectorProgress(io, opts.quiet);
  try {
    const { embedder } = configuredEmbedder(store, io.env, io.cwd);
    const result = await refreshVectors(store, embedder, {
      budgetMs: opts.budgetMs,
      signal: io.signal,
      onProgress: progress.update,
    });
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    progress.done();
  }
}
