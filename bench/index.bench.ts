/**
 * Issue 20's index figures, each beside its baseline from the same run: a full `cairn index` (the bundled CLI an
 * installed `cairn` runs, a new process, embedding included) as a ratio of `JSON.parse` of the same bytes by wall
 * and by CPU time, its peak RSS and the database's size beside the input; a no-change and a one-file-appended
 * re-index as a ratio of an empty `node -e 0` start. Measured on a Claude-only and a pi-only corpus (cost follows
 * events, and pi writes about twice Claude's events per MB) and on the mixed corpus shaped like real use (about
 * 3,000 files; sizes p50 105 KB, p90 650 KB, p99 5 MB, max 90 MB), which also gives the cost of secret detection
 * and search latency at 1 M events.
 * CAIRN_BENCH_AGENT_FILES (default 300, about 90 MB each) sizes the per-agent corpora, CAIRN_BENCH_FILES the
 * mixed one (0 skips it), CAIRN_BENCH_SEARCH=0 skips the search part. CAIRN_BENCH_BASELINE=/other/checkout
 * times that checkout's built CLI (its dist/) on the per-agent corpora in the same run, for a before/after.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { search } from "../src/search/search.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import { type CorpusFile, generateCorpus, realisticSizes } from "./corpus.ts";
import { emptyNode, jsonParseRate, type ProcessRun, timedNode } from "./index-measure.ts";

const here = dirname(fileURLToPath(import.meta.url));
const base = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"));
const fileCount = Number(process.env["CAIRN_BENCH_FILES"] ?? 3000);
const agentFiles = Number(process.env["CAIRN_BENCH_AGENT_FILES"] ?? 300);
/** The command a checkout's build installs as: its bundle (dist/bundle), or dist/cli/main.js from before it. */
const builtCli = (checkout: string): string => {
  const bundle = join(checkout, "dist/bundle/cairn.js");
  return existsSync(bundle) ? bundle : join(checkout, "dist/cli/main.js");
};
const cli = builtCli(join(here, ".."));
if (!existsSync(cli)) throw new Error(`${cli} is missing: npm run build first (npm run bench does)`);
const home = mkdtempSync(join(tmpdir(), "cairn-index-home-"));
process.on("exit", () => rmSync(home, { recursive: true, force: true }));
const cliEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "cfg") };

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

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const fixed = (x: number | null, d = 2) => (x === null ? "?" : x.toFixed(d));
const freshDb = (db: string) => {
  for (const ext of ["", "-wal", "-shm", ".lock"]) rmSync(db + ext, { force: true });
};
const dbBytes = (db: string) => [db, `${db}-wal`].reduce((a, f) => a + (existsSync(f) ? statSync(f).size : 0), 0);
const baseline = process.env["CAIRN_BENCH_BASELINE"];
let cliPath = cli;
const indexCli = (db: string, root: string): ProcessRun =>
  timedNode([cliPath, "index", "--json", "--db", db, root], cliEnv);

const empty = emptyNode();
console.log(
  `baseline: empty node -e 0 ${empty.wallMs.toFixed(0)} ms wall, ${fixed(empty.cpuMs, 0)} ms CPU (median of 5); load average ${(
    await import("node:os")
  )
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);

/**
 * What storing these events costs at the least (bench/index-floor.ts: the stored rows and a full-text index of
 * their text, nothing else), as a ratio of `JSON.parse` like the full index; with the parse itself added, the
 * best any indexer storing each event as a searchable row could reach on this machine.
 */
function printFloor(
  label: string,
  root: string,
  db: string,
  mb: number,
  json: { bytes: number; cpuMbps: number; wallMbps: number },
): void {
  const scratch = `${db}.floor`;
  const n = spawnSync(process.execPath, [join(here, "normalize-floor.ts"), root], { encoding: "utf8" });
  if (n.status !== 0) throw new Error(`normalize floor failed: ${n.stderr}`);
  const normalized = JSON.parse(n.stdout) as { events: number; cpu_ms: number };
  const r = spawnSync(process.execPath, [join(here, "index-floor.ts"), db, scratch], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`index floor failed: ${r.stderr}`);
  const floor = JSON.parse(r.stdout) as {
    rows: number;
    cpu_ms: number;
    wall_ms: number;
    seed_model_cpu_ms: number;
    seed_model_bytes: number;
    turn_blocks: { raw_bytes: number; deflated_bytes: number; cpu_ms: number };
  };
  const parseS = mb / json.cpuMbps;
  const ratio = (s: number) => (mb / s / json.cpuMbps).toFixed(3);
  console.log(
    `${label}: storage floor (the ${floor.rows} stored rows and a full-text index of their text alone, inserted) ${(floor.cpu_ms / 1000).toFixed(2)} s CPU = ${ratio(floor.cpu_ms / 1000)} x JSON.parse by CPU; with the parse ${ratio(floor.cpu_ms / 1000 + parseS)} (goal for the whole index >= 0.15)`,
  );
  const seedAndReaders = (floor.seed_model_cpu_ms + normalized.cpu_ms) / 1000;
  console.log(
    `${label}: the readers and topology alone (read, parse, normalize into ${normalized.events} events; nothing stored) ${(normalized.cpu_ms / 1000).toFixed(2)} s CPU = ${ratio(normalized.cpu_ms / 1000)} x JSON.parse by CPU; with the seed model's inserts below ${ratio(seedAndReaders)} (goal for the whole index >= 0.15)`,
  );
  console.log(
    `${label}: the seed's data model alone (event rows of its 13 columns, a full-text index of their text, the typed edges; no other index, no vectors): inserts ${(floor.seed_model_cpu_ms / 1000).toFixed(2)} s CPU, with the parse ${ratio(floor.seed_model_cpu_ms / 1000 + parseS)} x JSON.parse by CPU (goal for the whole index >= 0.15); vacuumed ${(floor.seed_model_bytes / 1048576).toFixed(0)} MB = ${(floor.seed_model_bytes / json.bytes).toFixed(2)} x input (goal for the whole database <= 1.1)`,
  );
  const blocks = floor.turn_blocks;
  console.log(
    `${label}: the events' texts and metas kept deflated per turn (level 1) ${(blocks.raw_bytes / 1048576).toFixed(0)} MB -> ${(blocks.deflated_bytes / 1048576).toFixed(0)} MB, ${(blocks.cpu_ms / 1000).toFixed(2)} s CPU = ${(blocks.cpu_ms / 1000 / (parseS / 0.15)).toFixed(2)} of the CPU the goal allows the whole index`,
  );
}

/** Full, no-change and one-file-appended `cairn index` of one corpus, each beside its baseline. */
function measureCorpus(label: string, files: CorpusFile[], root: string, db: string, keep = false): void {
  freshDb(db);
  const json = jsonParseRate(files.map((f) => f.path));
  const mb = json.bytes / 1048576;
  const full = indexCli(db, root);
  const summary = JSON.parse(full.stdout) as { events?: number };
  const wallMbps = mb / (full.wallMs / 1000);
  const cpuMbps = full.cpuMs === null ? null : mb / (full.cpuMs / 1000);
  console.log(
    `${label}: ${files.length} files, ${mb.toFixed(0)} MB, ${summary.events ?? "?"} events. Full index ${(full.wallMs / 1000).toFixed(1)} s wall, ${fixed(full.cpuMs === null ? null : full.cpuMs / 1000, 1)} s CPU = ${wallMbps.toFixed(1)} MB/s wall, ${fixed(cpuMbps, 1)} MB/s CPU; JSON.parse ${json.wallMbps.toFixed(0)} MB/s wall, ${json.cpuMbps.toFixed(0)} MB/s CPU; ratio ${(wallMbps / json.wallMbps).toFixed(3)} wall (goal >= 0.25), ${fixed(cpuMbps === null ? null : cpuMbps / json.cpuMbps, 3)} CPU (goal >= 0.15); peak RSS ${fixed(full.rssMb, 0)} MB; database ${(dbBytes(db) / 1048576).toFixed(0)} MB = ${(dbBytes(db) / json.bytes).toFixed(2)} x input (goal <= 1.1)`,
  );
  printFloor(label, root, db, mb, json);
  const vsEmpty = (r: ProcessRun) =>
    `${r.wallMs.toFixed(0)} ms wall = ${(r.wallMs / empty.wallMs).toFixed(2)} x empty node, ${fixed(r.cpuMs, 0)} ms CPU = ${fixed(r.cpuMs === null || empty.cpuMs === null ? null : r.cpuMs / empty.cpuMs)} x`;
  console.log(`${label}: no-change re-index ${vsEmpty(indexCli(db, root))} (goal <= 2)`);
  const grown = files[Math.floor(files.length / 2)]!;
  const lines = readFileSync(grown.path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  appendFileSync(grown.path, `${lines.slice(-5).join("\n")}\n`);
  console.log(`${label}: one file appended, re-index ${vsEmpty(indexCli(db, root))} (goal <= 3)`);
  if (!keep) freshDb(db);
}

// Per-agent corpora: the realistic size mix capped at 5 MB a file (about 90 MB at 300 files).
const agentSizes = realisticSizes(agentFiles, 7).map((s) => Math.min(s, 5_000_000));
for (const agent of ["claude", "pi"] as const) {
  const root = join(base, `index-${agent}-${agentFiles}`);
  const files = generateCorpus(root, agentSizes, `index-${agent}-${agentFiles}`, agent);
  measureCorpus(`${agent}-only corpus`, files, root, join(base, `index-${agent}-${agentFiles}.db`));
  if (baseline) {
    cliPath = builtCli(baseline);
    measureCorpus(`${agent}-only corpus, before (${baseline})`, files, root, join(base, `index-${agent}-before.db`));
    cliPath = cli;
  }
}
if (fileCount === 0) process.exit(0);

const sizes = realisticSizes(fileCount, 5);
const t0 = Date.now();
const corpus = generateCorpus(join(base, `index-corpus-${fileCount}`), sizes, `index-${fileCount}`);
const totalMb = corpus.reduce((a, f) => a + f.bytes, 0) / 1048576;
const sorted = corpus.map((f) => f.bytes).sort((a, b) => a - b);
console.log(
  `mixed corpus: ${corpus.length} files, ${totalMb.toFixed(0)} MB (p50 ${(pct(sorted, 50) / 1000).toFixed(0)} KB, p90 ${(pct(sorted, 90) / 1000).toFixed(0)} KB, p99 ${(pct(sorted, 99) / 1e6).toFixed(1)} MB, max ${(sorted[sorted.length - 1]! / 1e6).toFixed(0)} MB), ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
const root = join(base, `index-corpus-${fileCount}`);
const db = join(base, `index-${fileCount}.db`);
measureCorpus("mixed corpus", corpus, root, db, true);

// Secret detection on and off, the indexer alone in a process of its own (issue 23's goal: on within 10 % of off).
const secretsDb = join(base, `index-${fileCount}-secrets.db`);
const secretRun = (on: boolean) => {
  freshDb(secretsDb);
  const r = child(secretsDb, [root], on ? {} : { CAIRN_BENCH_SECRETS: "0" });
  freshDb(secretsDb);
  return r;
};
const on = secretRun(true);
const off = secretRun(false);
const rate = (r: typeof on) => ({ wall: totalMb / (r.ms / 1000), cpu: totalMb / (r.cpu_ms / 1000) });
console.log(
  `secret detection: on ${rate(on).wall.toFixed(1)} MB/s wall, ${rate(on).cpu.toFixed(1)} MB/s CPU; off ${rate(off).wall.toFixed(1)} MB/s wall, ${rate(off).cpu.toFixed(1)} MB/s CPU; on costs ${((on.ms / off.ms - 1) * 100).toFixed(1)} % wall, ${((on.cpu_ms / off.cpu_ms - 1) * 100).toFixed(1)} % CPU`,
);
if (process.env["CAIRN_BENCH_SEARCH"] === "0") process.exit(0);

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
