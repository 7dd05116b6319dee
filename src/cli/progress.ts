/**
 * Progress of long work on stderr. On a terminal: one line redrawn in place, with the rate and an ETA. Elsewhere
 * (a pipe, a log file, CI) no carriage returns: one line when a long phase starts, and nothing else.
 */
import type { IndexProgress } from "../app/indexing.ts";
import type { CliIo } from "./io.ts";

/** Work below this size is quick enough that a pipe is told nothing about it. */
const LONG_BYTES = 16 * 1024 * 1024;
const LONG_ITEMS = 2_000;
const REDRAW_MS = 100;

export interface ProgressLine {
  update(done: number, total: number, detail?: string): void;
  done(): void;
}

/** "12s", "3m05s", "1h02m": how long the rest will take at the rate so far. */
export function formatEta(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The time left at the rate so far, once there is enough of a rate to go on. */
export function eta(done: number, total: number, elapsedMs: number): number | null {
  if (done <= 0 || elapsedMs < 500 || total <= done) return null;
  return ((total - done) * elapsedMs) / done;
}

/**
 * A progress line for one phase (`label`: what is being done). `format` writes an amount, `suffix` names its unit;
 * `longAt` is the total above which a pipe gets the one starting line. The ETA counts from the first update.
 */
export function createProgressLine(
  io: CliIo,
  label: string,
  opts: { quiet?: boolean; format?: (n: number) => string; suffix?: string; longAt?: number } = {},
): ProgressLine {
  const format = opts.format ?? ((n: number) => n.toLocaleString("en-US"));
  const suffix = opts.suffix ?? "";
  const tty = io.stderr.isTTY === true;
  let start: number | null = null;
  let last = 0;
  let shown = false;
  let announced = false;
  return {
    update(done, total, detail) {
      if (opts.quiet) return;
      if (!tty) {
        if (!announced && total >= (opts.longAt ?? LONG_ITEMS)) {
          io.stderr.write(`${label} ${format(total)}${suffix}…\n`);
          announced = true;
        }
        return;
      }
      const now = Date.now();
      start ??= now;
      if (now - last < REDRAW_MS && done < total) return;
      last = now;
      const frac = total > 0 ? Math.min(1, done / total) : 1;
      const width = 24;
      const filled = Math.round(frac * width);
      const left = eta(done, total, now - start);
      const parts = [
        `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(frac * 100)).padStart(3)}%`,
        `${label} ${format(done)}/${format(total)}${suffix}`,
        ...(detail ? [detail] : []),
        ...(left !== null ? [`ETA ${formatEta(left)}`] : []),
      ];
      io.stderr.write(`\r${parts.join("  ")}\u001b[K`);
      shown = true;
    },
    done() {
      if (tty && shown) io.stderr.write("\r\u001b[K");
      shown = false;
    },
  };
}

export function megabytes(n: number): string {
  return (n / 1048576).toFixed(1);
}

/** The indexing phase: bytes to read (new and grown files), files done, MB/s. */
export function createProgress(io: CliIo, quiet = false): { update(p: IndexProgress): void; done(): void } {
  const start = Date.now();
  const line = createProgressLine(io, "indexing", { quiet, format: megabytes, suffix: " MB", longAt: LONG_BYTES });
  return {
    update(p) {
      const secs = Math.max(0.001, (Date.now() - start) / 1000);
      line.update(
        p.bytesDone,
        p.bytesTotal,
        `${p.filesDone}/${p.filesTotal} files  ${(p.bytesDone / 1048576 / secs).toFixed(1)} MB/s`,
      );
    },
    done: line.done,
  };
}
