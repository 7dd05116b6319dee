/**
 * Issue 3 figures on a generated corpus shaped like real use (about 3,000 files; sizes p50 105 KB, p90 650 KB,
 * p99 5 MB, max 90 MB): full index MB/s and peak RSS, beside JSON.parse of the same bytes in the same run;
 * no-change re-index; append re-index; search latency p50/p95 at 1 M events.
 * Goals: ≥ 1/4 of JSON.parse (≥ 30 MB/s here), RSS ≤ 300 MB, no-change ≤ 200 ms, search p95 ≤ 30 ms.
 * CAIRN_BENCH_FILES scales the corpus down for a quick run.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, closeSync, fstatSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { splitLines } from "../src/readers/lines.ts";
import { search } from "../src/search/search.ts";
import { openStore } from "../src/store/sqlite-store.ts";
import { type CorpusFile, generateCorpus, realisticSizes } from "./corpus.ts";

const here = dirname(fileURLToPath(import.meta.url));
const base = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"));
const fileCount = Number(process.env["CAIRN_BENCH_FILES"] ?? 3000);

function child(
  db: string,
  roots: string[],
  env: Record<string, string> = {},
): {
  ms: number;
  cpu_ms: number;
  max_rss_mb: number;
  files: number;
  changed: number;
  bytes: number;
  events: number;
  sessions: number;
} {
  const r = spawnSync(process.execPath, [join(here, "index-child.ts"), db, ...roots], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(`index child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function jsonParseMbps(files: CorpusFile[]): number {
  const c0 = process.cpuUsage();
  let bytes = 0;
  for (const f of files) {
    const fd = openSync(f.path, "r");
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
  const c = process.cpuUsage(c0);
  return bytes / 1048576 / ((c.user + c.system) / 1e6);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const sizes = realisticSizes(fileCount, 5);
const t0 = Date.now();
const corpus = generateCorpus(join(base, `index-corpus-${fileCount}`), sizes, `index-${fileCount}`);
const totalMb = corpus.reduce((a, f) => a + f.bytes, 0) / 1048576;
const sorted = corpus.map((f) => f.bytes).sort((a, b) => a - b);
console.log(
  `corpus: ${corpus.length} files, ${totalMb.toFixed(0)} MB (p50 ${(pct(sorted, 50) / 1000).toFixed(0)} KB, p90 ${(pct(sorted, 90) / 1000).toFixed(0)} KB, p99 ${(pct(sorted, 99) / 1e6).toFixed(1)} MB, max ${(sorted[sorted.length - 1]! / 1e6).toFixed(0)} MB), ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
const root = join(base, `index-corpus-${fileCount}`);
const db = join(base, `index-${fileCount}.db`);
for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });

const json = jsonParseMbps(corpus);
const full = child(db, [root]);
const mb = full.bytes / 1048576;
console.log(
  `full index: ${full.files} files, ${mb.toFixed(0)} MB, ${full.events} events, ${full.sessions} sessions in ${(full.ms / 1000).toFixed(1)} s = ${(mb / (full.ms / 1000)).toFixed(1)} MB/s wall, ${(mb / (full.cpu_ms / 1000)).toFixed(1)} MB/s CPU; JSON.parse alone ${json.toFixed(0)} MB/s CPU; ratio to it ${(mb / (full.ms / 1000) / json).toFixed(2)} wall, ${(mb / (full.cpu_ms / 1000) / json).toFixed(2)} CPU; peak RSS ${full.max_rss_mb.toFixed(0)} MB; database ${(statSync(db).size / 1048576).toFixed(0)} MB`,
);

// The same corpus with secret detection off (issue 23's goal: detection on within 10 % of off).
const offDb = join(base, `index-${fileCount}-nosecrets.db`);
for (const ext of ["", "-wal", "-shm"]) rmSync(offDb + ext, { force: true });
const off = child(offDb, [root], { CAIRN_BENCH_SECRETS: "0" });
for (const ext of ["", "-wal", "-shm"]) rmSync(offDb + ext, { force: true });
const rate = (r: typeof full) => ({ wall: mb / (r.ms / 1000), cpu: mb / (r.cpu_ms / 1000) });
console.log(
  `secret detection: on ${rate(full).wall.toFixed(1)} MB/s wall, ${rate(full).cpu.toFixed(1)} MB/s CPU; off ${rate(off).wall.toFixed(1)} MB/s wall, ${rate(off).cpu.toFixed(1)} MB/s CPU; on costs ${((full.ms / off.ms - 1) * 100).toFixed(1)} % wall, ${((full.cpu_ms / off.cpu_ms - 1) * 100).toFixed(1)} % CPU`,
);

const noChange = child(db, [root]);
console.log(
  `no-change re-index: ${noChange.files} files, ${noChange.changed} changed, ${noChange.ms.toFixed(0)} ms (process startup excluded)`,
);

// Append to 30 files, as live sessions do, then re-index.
const grown = corpus.filter((_, i) => i % Math.max(1, Math.floor(corpus.length / 30)) === 0).slice(0, 30);
let appended = 0;
for (const f of grown) {
  const text = readFileSync(f.path, "utf8");
  const lines = text.split("\n").filter((l) => l.length > 0);
  // A few more lines of the same session: pi/codex bodies re-stated with new ids would be new records; reuse the last lines.
  const extra = `${lines.slice(-5).join("\n")}\n`;
  appendFileSync(f.path, extra);
  appended += extra.length;
}
const append = child(db, [root]);
console.log(
  `append re-index: ${append.changed} files grew by ${(appended / 1024).toFixed(0)} KB in ${append.ms.toFixed(0)} ms`,
);

// Search latency at ≥ 1 M events: the corpus above plus more of the same shape until the index holds a million.
let events = openStore(db).counts().events;
let extraRound = 0;
while (events < 1_000_000 && extraRound < 10) {
  const more = generateCorpus(
    join(base, `search-extra-${fileCount}-${extraRound}`),
    realisticSizes(Math.min(fileCount, 1500), 100 + extraRound).map((s) => Math.min(s, 5_000_000)),
    `extra-${fileCount}-${extraRound}`,
  );
  child(db, [join(base, `search-extra-${fileCount}-${extraRound}`)]);
  events = openStore(db).counts().events;
  console.log(`  + ${more.length} files for the search index: ${events} events`);
  extraRound++;
}
const store = openStore(db, { readonly: true });
const queries = [
  "error: TS2554",
  "test:fail",
  "theme selector",
  'cmd:"npm run check"',
  "file:theme.ts",
  "decision:",
  "error: not found",
  "provider:codex apply_patch",
  "resume: continued",
  "tool:Bash git",
  "process.env",
  "kind:error since:2025-11-21",
  "wrapAnsi",
  "project:pi-mono editor",
  '"cannot find name"',
];
const times: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const q of queries) {
    const t = process.hrtime.bigint();
    search(store, q, { limit: 20 });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
times.sort((a, b) => a - b);
console.log(
  `search at ${store.counts().events} events: ${times.length} queries, p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms`,
);
store.close();
