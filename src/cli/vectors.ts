/** Keeping the semantic layer current from the CLI: bundling and embedding with a progress line. */
import { configuredEmbedder } from "../embedders/config.ts";
import { type RefreshResult, refreshVectors, type VectorProgress } from "../search/vectors.ts";
import type { Store } from "../store/types.ts";
import type { CliIo } from "./io.ts";
import { createProgressLine } from "./progress.ts";

/** Progress for bundling and embedding (stderr): each phase with its ETA on a terminal, a starting line elsewhere. */
export function createVectorProgress(io: CliIo, quiet: boolean): { update(p: VectorProgress): void; done(): void } {
  const lines = {
    bundle: createProgressLine(io, "bundling", { quiet, suffix: " events" }),
    embed: createProgressLine(io, "embedding", { quiet, suffix: " bundles" }),
  };
  let phase: VectorProgress["phase"] | null = null;
  return {
    update(p) {
      if (phase !== null && phase !== p.phase) lines[phase].done();
      phase = p.phase;
      lines[p.phase].update(p.done, p.total);
    },
    done() {
      if (phase !== null) lines[phase].done();
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
