/**
 * What the index benchmark measures with: a process timed from outside (wall, CPU of all its threads, peak RSS,
 * from the kernel's rusage: bench/rusage.ts) and the baselines every figure is divided by, taken in the same run: an empty
 * `node -e 0` start and a bare `JSON.parse` of every line of the same bytes.
 */
import { spawnSync } from "node:child_process";
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitLines } from "../src/readers/lines.ts";
import { readUsage, underTimer } from "./rusage.ts";

export interface ProcessRun {
  wallMs: number;
  /** User + system CPU of the process and its threads; null without /usr/bin/time. */
  cpuMs: number | null;
  /** Peak resident memory; null without /usr/bin/time. */
  rssMb: number | null;
  stdout: string;
}

const timeDir = mkdtempSync(join(tmpdir(), "cairn-index-bench-"));
const timeFile = join(timeDir, "time.txt");
process.on("exit", () => rmSync(timeDir, { recursive: true, force: true }));

/** Runs `node …args` to its end; throws when it fails. */
export function timedNode(args: string[], env: NodeJS.ProcessEnv = process.env): ProcessRun {
  const run = underTimer(timeFile, [process.execPath, ...args]);
  const start = performance.now();
  const r = spawnSync(run.command, run.args, { env, encoding: "utf8", maxBuffer: 1 << 26 });
  const wallMs = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const usage = readUsage(timeFile);
  return { wallMs, cpuMs: usage?.cpuMs ?? null, rssMb: usage?.rssMb ?? null, stdout: r.stdout };
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** An empty `node -e 0`, the median of a few starts. */
export function emptyNode(rounds = 5): { wallMs: number; cpuMs: number | null } {
  const runs = Array.from({ length: rounds }, () => timedNode(["-e", "0"]));
  const cpu = runs.map((r) => r.cpuMs).filter((c): c is number => c !== null);
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: cpu.length ? median(cpu) : null };
}

/**
 * `JSON.parse` of every line of the files, read in 8 MiB chunks and split as the readers split: MB/s of wall
 * and of CPU time in this process (single-threaded, so the two differ only by the machine's load).
 */
export function jsonParseRate(paths: string[]): { bytes: number; wallMbps: number; cpuMbps: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  for (const path of paths) {
    const fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    let pos = 0;
    let carry = Buffer.alloc(0);
    for (;;) {
      const want = Math.max(1, Math.min(8 << 20, size - pos + 1));
      const chunk = Buffer.allocUnsafe(want);
      const n = readSync(fd, chunk, 0, want, pos);
      pos += n;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      const split = splitLines(buf, 1, n < want);
      for (const l of split.lines) JSON.parse(l.text);
      carry = Buffer.from(buf.subarray(split.consumed));
      if (n < want) break;
    }
    closeSync(fd);
    bytes += size;
  }
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const mb = bytes / 1048576;
  return { bytes, wallMbps: mb / wall, cpuMbps: mb / ((c.user + c.system) / 1e6) };
}
