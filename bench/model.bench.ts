/**
 * Issue 35 figures: a real sentence model (the best installed, `cairn models pull`) beside the static vectors, in
 * the same run, on the million-event index the index benchmark builds:
 * - bundles embedded per second on a sample of the index's own bundles, and what that makes for every bundle of
 *   the index, beside the time the words-only index took (the index benchmark's figure, CAIRN_BENCH_WORDS_S);
 * - query embedding p50/p95, warm;
 * - hybrid search p50/p95 at a million events, warm, with a vector of the model's dimension for every bundle.
 *   Embedding them all takes hours on two cores, so each bundle gets the model's vector of a sampled bundle:
 *   the search does the same work on the same number of vectors; its hits are not judged here (eval:search is).
 * With no model installed it says how to install one and measures nothing. Prints figures; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createModelEmbedder } from "../src/embedders/model-embedder.ts";
import { preferredModel } from "../src/embedders/models/installed.ts";
import { createStaticEmbedder } from "../src/embedders/static.ts";
import type { Embedder } from "../src/embedders/types.ts";
import { searchHybrid } from "../src/search/hybrid.ts";
import { buildQueuedBundles, refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench");
const fileCount = Number(process.env["CAIRN_BENCH_FILES"] ?? 3000);
const source = join(base, `index-${fileCount}.db`);
const db = join(base, `model-${fileCount}.db`);
const SAMPLE = Number(process.env["CAIRN_BENCH_MODEL_SAMPLE"] ?? 2000);

const installed = preferredModel(process.env);
if (!installed) {
  console.log("no sentence model installed: 'cairn models pull minilm-l6' (or --from a folder) installs one");
  process.exit(0);
}
if (!existsSync(source)) {
  console.log(`no million-event index at ${source}: running the index benchmark first`);
  spawnSync(process.execPath, [join(here, "index.bench.ts")], { stdio: "inherit" });
}
for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });
copyFileSync(source, db);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const store = openStore(db);
const events = store.counts().events;
buildQueuedBundles(store);
const bundles = store.vectorState().bundles;
const sample = store
  .pendingBundles(50_000)
  .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / SAMPLE)) === 0);
const texts = sample.slice(0, SAMPLE).map((b) => b.text);
const model = createModelEmbedder(installed);
const embedders: Array<[string, Embedder]> = [
  ["static", createStaticEmbedder()],
  [installed.manifest.id, model],
];
console.log(
  `${events} events, ${bundles} bundles; a sample of ${texts.length} bundles (mean ${Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length)} chars)`,
);

let modelVectors: Float32Array[] = [];
for (const [name, e] of embedders) {
  await e.embed(["warm the embedder up"], "document");
  const t = performance.now();
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 256) vectors.push(...(await e.embed(texts.slice(i, i + 256), "document")));
  const rate = texts.length / ((performance.now() - t) / 1000);
  if (e === model) modelVectors = vectors;
  const words = Number(process.env["CAIRN_BENCH_WORDS_S"] ?? Number.NaN);
  const whole = bundles / rate;
  console.log(
    `${name.padEnd(10)} ${Math.round(rate)} bundles/s; every bundle of the index: ${(whole / 60).toFixed(1)} min${Number.isNaN(words) ? "" : ` (${(whole / words).toFixed(1)}× the words-only index's ${words} s)`}`,
  );
}

const queries = [
  "theme selector",
  "the push to the remote was refused",
  "why did the type check fail after the rename",
  "tests broke after changing the editor",
  "decision: keep the block as is",
  "brief pause in the shell that was interrupted",
  "project:pi-mono terminal colors look wrong",
  "what did we decide about the release process",
];
for (const [name, e] of embedders) {
  const times: number[] = [];
  for (let round = 0; round < 10; round++)
    for (const q of queries) {
      const t = performance.now();
      await e.embed([`${q} ${round}`], "query");
      times.push(performance.now() - t);
    }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(10)} query embedding, warm: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`,
  );
}

// Every bundle gets the model's vector of a sampled bundle: the model's dimension and count, in seconds.
const replay: Embedder = {
  id: model.id,
  dimension: model.dimension,
  ...(model.floor === undefined ? {} : { floor: model.floor }),
  async embed(batch, purpose) {
    if (purpose === "query") return model.embed(batch, purpose);
    return batch.map((_, i) => modelVectors[(i * 7919) % modelVectors.length]!);
  },
};
let t = performance.now();
await refreshVectors(store, replay);
console.log(
  `stored ${store.vectorState().embedded} vectors of ${model.dimension} dimensions in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
for (const [name, e] of [
  ["static", null],
  [installed.manifest.id, replay],
] as const) {
  const times: number[] = [];
  for (let round = 0; round < 5; round++)
    for (const q of queries) {
      t = performance.now();
      await searchHybrid(store, `${q}`, { embedder: e, mode: e ? "hybrid" : "lexical", limit: 20 });
      times.push(performance.now() - t);
    }
  times.sort((a, b) => a - b);
  console.log(
    `${e ? `hybrid with ${name}` : "words alone"} at ${events} events: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`,
  );
}
await model.close?.();
store.close();
rmSync(db, { force: true });
