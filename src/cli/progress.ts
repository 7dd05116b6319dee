/** A one-line progress bar on a terminal (stderr), silent otherwise. */
import type { IndexProgress } from "../indexer/indexer.ts";
import type { CliIo } from "./io.ts";

export function createProgress(io: CliIo): { update(p: IndexProgress): void; done(): void } {
  const tty = io.stderr.isTTY === true;
  let last = 0;
  const start = Date.now();
  let shown = false;
  return {
    update(p) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 100 && p.filesDone < p.filesTotal) return;
      last = now;
      const frac = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 1;
      const width = 24;
      const filled = Math.round(frac * width);
      const mbps = p.bytesDone / 1048576 / Math.max(0.001, (now - start) / 1000);
      io.stderr.write(
        `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(frac * 100)).padStart(3)}%  ${p.filesDone}/${p.filesTotal} files  ${(p.bytesDone / 1048576).toFixed(1)} MB  ${mbps.toFixed(1)} MB/s\u001b[K`,
      );
      shown = true;
    },
    done() {
      if (tty && shown) io.stderr.write("\r\u001b[K");
    },
  };
}
