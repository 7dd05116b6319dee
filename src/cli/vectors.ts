/** Bundling and embedding on the command line: a progress line while the application layer does the work. */
import type { VectorProgress } from "../search/vectors.ts";
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
