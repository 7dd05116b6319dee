/**
 * `npm run eval:search`: search quality on the real transcripts (issue 7's "Must show"). Indexes the usable
 * fixtures into a temporary database, embeds their evidence bundles with the default embedder, runs every
 * hand-judged query of `search-eval/queries.json` through words only, meaning only and both fused, and reports
 * recall@10 and nDCG@10 (gain 2^grade − 1) for all queries and per kind: lexical, paraphrase (other words than
 * the transcript's), decision ("what did we decide about X"), end-state ("did X work in the end") and
 * still-failing ("what was still failing at the end").
 * Queries go through the application layer, as `cairn search` sends them. Prints figures; asserts nothing. `--json` prints per-query rows instead; `--verbose` lists each query's scores.
 * Goal: hybrid ≥ lexical on every kind, clearly better on paraphrases, and nDCG@10 ≥ 0.6 on the three newer kinds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCairn } from "../src/app/cairn.ts";
import { indexPaths } from "../src/indexer/indexer.ts";
import type { SearchMode } from "../src/search/hybrid.ts";
import { refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import { evalEmbedder } from "./eval-embedder.ts";
import { type JudgedQuery, loadJudged, QUERY_KINDS, usableFixturePaths } from "./search-eval/judged.ts";

const K = 10;
const MODES: readonly SearchMode[] = ["lexical", "vector", "hybrid"];
const json = process.argv.includes("--json");
const verbose = process.argv.includes("--verbose");

export function recallAt(ids: readonly string[], relevant: Record<string, number>, k = K): number {
  const total = Object.keys(relevant).length;
  if (total === 0) return 0;
  return ids.slice(0, k).filter((id) => relevant[id] !== undefined).length / total;
}

export function ndcgAt(ids: readonly string[], relevant: Record<string, number>, k = K): number {
  const gain = (g: number) => 2 ** g - 1;
  const dcg = ids.slice(0, k).reduce((s, id, i) => s + gain(relevant[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

interface Row {
  id: string;
  type: JudgedQuery["type"];
  mode: SearchMode;
  recall: number;
  ndcg: number;
  ms: number;
}

const dir = mkdtempSync(join(tmpdir(), "cairn-search-eval-"));
const store = openStore(join(dir, "eval.db"));
// through the application, as `cairn search` asks: the ledger's failures answer "what was still failing"
const chosen = evalEmbedder();
chosen.choose(store);
const app = createCairn({ store, env: { HOME: dir, ...chosen.env } });
try {
  indexPaths({ store, paths: usableFixturePaths() });
  const { embedder } = chosen;
  const t0 = performance.now();
  const refreshed = await refreshVectors(store, embedder);
  const embedMs = performance.now() - t0;
  const rows: Row[] = [];
  for (const q of loadJudged()) {
    for (const mode of MODES) {
      const t = performance.now();
      const result = await app.search({ query: q.query, mode, limit: K });
      const ms = performance.now() - t;
      const ids = result.hits.map((h) => h.event_id);
      rows.push({ id: q.id, type: q.type, mode, recall: recallAt(ids, q.relevant), ndcg: ndcgAt(ids, q.relevant), ms });
    }
  }
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
  } else {
    console.log(
      `search quality on ${new Set(rows.map((r) => r.id)).size} hand-judged queries over the real transcripts (${store.counts().events} events, ${refreshed.bundled} bundles embedded by ${embedder.id} in ${embedMs.toFixed(0)} ms)`,
    );
    console.log(`${"queries".padEnd(20)} ${"mode".padEnd(8)} ${"recall@10".padStart(9)} ${"nDCG@10".padStart(8)}`);
    for (const type of ["all", ...QUERY_KINDS] as const) {
      for (const mode of MODES) {
        const sel = rows.filter((r) => r.mode === mode && (type === "all" || r.type === type));
        const mean = (f: (r: Row) => number) => sel.reduce((s, r) => s + f(r), 0) / Math.max(1, sel.length);
        console.log(
          `${`${type} (${sel.length})`.padEnd(20)} ${mode.padEnd(8)} ${mean((r) => r.recall)
            .toFixed(3)
            .padStart(9)} ${mean((r) => r.ndcg)
            .toFixed(3)
            .padStart(8)}`,
        );
      }
    }
    const times = rows.map((r) => r.ms).sort((a, b) => a - b);
    console.log(`query time p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms over ${times.length} runs`);
    if (verbose) {
      for (const id of new Set(rows.map((r) => r.id))) {
        const r = rows.filter((x) => x.id === id);
        console.log(
          `${id} ${r[0]!.type.padEnd(13)} ${r.map((x) => `${x.mode} ${x.recall.toFixed(2)}/${x.ndcg.toFixed(2)}`).join("  ")}`,
        );
      }
    }
  }
} finally {
  app.close();
  rmSync(dir, { recursive: true, force: true });
}
