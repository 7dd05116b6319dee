/** A one-line progress display for bundling and embedding (stderr, terminals only). */
import type { VectorProgress } from "../search/vectors.ts";
import type { CliIo } from "./io.ts";

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
