/**
 * Issue 7 figures: the default embedder's throughput (bundles per second, embedding alone and end to end with
 * bundling and storing the vectors) and hybrid search latency p50/p95 at about a million events, beside words
 * alone on the same index. Uses a copy of the million-event index the index benchmark builds (it runs that
 * benchmark first when the index is missing). Prints figures; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createStaticEmbedder } from "../src/embedders/static.ts";
import { searchHybrid } from "../src/search/hybrid.ts";
import { buildQueuedBundles, refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench");
const fileCount = Number(process.env["CAIRN_BENCH_FILES"] ?? 3000);
const source = join(base, `index-${fileCount}.db`);
const db = join(base, `semantic-${fileCount}.db`);

if (!existsSync(source)) {
  console.log(`no million-event index at ${source}: running the index benchmark first`);
  spawnSync(process.execPath, [join(here, "index.bench.ts")], { stdio: "inherit" });
}
if (!existsSync(db) || statSync(source).mtimeMs > statSync(db).mtimeMs || process.env["CAIRN_BENCH_FRESH"]) {
  for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });
  copyFileSync(source, db);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const store = openStore(db);
const embedder = createStaticEmbedder();
const events = store.counts().events;

// Bundling: every queued event (the whole index the first time) becomes at most one bundle.
let t = performance.now();
const bundled = buildQueuedBundles(store);
const bundleMs = performance.now() - t;
const state = store.vectorState();
if (bundled > 0)
  console.log(
    `bundles: ${bundled} built from ${events} events in ${(bundleMs / 1000).toFixed(1)} s (${Math.round(bundled / (bundleMs / 1000))}/s)`,
  );

// Embedding alone: a sample of bundle texts through the default embedder, after the table is loaded.
t = performance.now();
await embedder.embed(["load the word vectors"], "document");
const loadMs = performance.now() - t;
const sample = store.pendingBundles(20_000);
if (sample.length > 0) {
  const texts = sample.map((b) => b.text);
  const chars = texts.reduce((a, s) => a + s.length, 0);
  t = performance.now();
  for (let i = 0; i < texts.length; i += 256) await embedder.embed(texts.slice(i, i + 256), "document");
  const ms = performance.now() - t;
  console.log(
    `default embedder: ${Math.round(texts.length / (ms / 1000))} bundles/s embedding alone (${texts.length} bundles, mean ${Math.round(chars / texts.length)} chars; table loaded in ${loadMs.toFixed(0)} ms)`,
  );
}

// End to end: embed and store every pending bundle.
if (state.embedded < state.bundles || state.embedder !== embedder.id) {
  t = performance.now();
  const r = await refreshVectors(store, embedder);
  const ms = performance.now() - t;
  console.log(
    `end to end: ${r.embedded} bundles embedded and stored in ${(ms / 1000).toFixed(1)} s = ${Math.round(r.embedded / (ms / 1000))} bundles/s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
} else console.log(`vectors already current (${state.embedded} bundles); CAIRN_BENCH_FRESH=1 re-embeds`);

const queries = [
  "theme selector",
  "error: not found",
  "wrapAnsi",
  "the push to the remote was refused",
  "why did the type check fail after the rename",
  "tests broke after changing the editor",
  "decision: keep the block as is",
  "provider:codex the interpreter binary is missing",
  "project:pi-mono terminal colors look wrong",
  "brief pause in the shell that was interrupted",
  "resume: summary of the conversation",
  "kind:error since:2025-11-21 module not found",
];
// The first query of a connection reads the vectors' sign bits (what every CLI search pays once).
{
  const cold = openStore(db, { readonly: true });
  const start = performance.now();
  await searchHybrid(cold, "the push to the remote was refused", { embedder, limit: 20 });
  console.log(`first hybrid query on a new connection: ${(performance.now() - start).toFixed(0)} ms`);
  cold.close();
}
for (const mode of ["lexical", "hybrid"] as const) {
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const q of queries) {
      const start = performance.now();
      await searchHybrid(store, q, { embedder, mode, limit: 20 });
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `${mode.padEnd(7)} search at ${events} events, ${store.vectorState().embedded} vectors: ${times.length} queries, p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  );
}
store.close();
