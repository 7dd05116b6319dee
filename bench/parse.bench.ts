/**
 * Parse + normalize throughput (MB/s of CPU time) of the readers and the topology, beside JSON.parse of every line of the same
 * bytes in the same run, on the real fixtures and on a generated corpus of at least 200 MB.
 * Goal (issue 2): at least half of JSON.parse alone.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTranscriptFile } from "../src/indexer/read-file.ts";
import { splitLines } from "../src/readers/lines.ts";
import { generateCorpus, realFixtureFiles, realisticSizes } from "./corpus.ts";

const CHUNK = 8 * 1024 * 1024;

/** The baseline: read the same bytes in the same chunks, split lines, JSON.parse each. */
function jsonParseOnly(path: string): number {
  const fd = openSync(path, "r");
  let pos = 0;
  let carry = Buffer.alloc(0);
  let n = 0;
  const size = fstatSync(fd).size;
  try {
    for (;;) {
      const want = Math.max(1, Math.min(CHUNK, size - pos + 1));
      const chunk = Buffer.allocUnsafe(want);
      const read = readSync(fd, chunk, 0, want, pos);
      pos += read;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const split = splitLines(buf, 1, read < want);
      for (const l of split.lines) {
        try {
          JSON.parse(l.text);
          n++;
        } catch {
          // counted as zero work either way
        }
      }
      carry = Buffer.from(buf.subarray(split.consumed));
      if (read < want) return n;
    }
  } finally {
    closeSync(fd);
  }
}

function cairnParse(path: string): number {
  let events = 0;
  readTranscriptFile(path, {
    takeUnterminated: true,
    onBatch(batch) {
      events += batch.events.length;
    },
  });
  return events;
}

/**
 * CPU seconds (user + system) of this process: on a shared two-core machine, wall time moves with whatever else
 * runs, while the CPU a single-threaded parse spends on its own work does much less.
 */
function time(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function measure(label: string, files: string[], repeat: number): void {
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0) * repeat;
  let events = 0;
  const run = (fn: (p: string) => number) => () => {
    for (let r = 0; r < repeat; r++) for (const f of files) events += fn(f);
  };
  // Warm both paths once, then take the best of five interleaved runs of each.
  run(jsonParseOnly)();
  run(cairnParse)();
  let bestJson = Number.POSITIVE_INFINITY;
  let bestCairn = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    bestJson = Math.min(bestJson, time(run(jsonParseOnly)));
    events = 0;
    bestCairn = Math.min(bestCairn, time(run(cairnParse)));
  }
  const mb = bytes / 1048576;
  const json = mb / bestJson;
  const cairn = mb / bestCairn;
  console.log(
    `${label.padEnd(34)} ${mb.toFixed(1).padStart(7)} MB  JSON.parse ${json.toFixed(1).padStart(6)} MB/s  cairn parse+normalize ${cairn.toFixed(1).padStart(6)} MB/s  ratio ${(cairn / json).toFixed(2)}  (${events} events)`,
  );
}

const real = realFixtureFiles();
measure(`real fixtures (${real.length} files, ×10)`, real, 10);

const dir = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"), "parse-corpus");
const target = Number(process.env["CAIRN_BENCH_MB"] ?? 220) * 1_000_000;
const sizes: number[] = [];
for (const s of realisticSizes(2000, 3)) {
  if (sizes.reduce((a, b) => a + b, 0) >= target) break;
  if (s < 60_000_000) sizes.push(s);
}
const t0 = Date.now();
const corpus = generateCorpus(dir, sizes, `parse-${target}`);
console.log(
  `generated corpus: ${corpus.length} files in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s, reused when present)`,
);
measure(
  `generated corpus (${corpus.length} files)`,
  corpus.map((c) => c.path),
  1,
);
