/**
 * `npm run eval:floor`: where the static embedder's similarity floor (`STATIC_FLOOR`) comes from. Two corpora are
 * indexed and embedded with the default embedder: the real transcripts of `search-eval/` and the transcripts the
 * agents' own CLIs wrote (test/fixtures/clients). Every query then goes through meaning alone with no floor, and
 * the similarity of its hits is read:
 * - related queries: the hand-judged queries of `queries.json` (the similarity of each relevant event meaning
 *   ranks in its first ten, and of the best hit), and queries about the client transcripts (`unrelated.json`'s
 *   `related_to_clients`: the best hit);
 * - unrelated queries (`unrelated.json`): gibberish, random letters, misspellings, real words the history never
 *   uses, a long unrelated sentence, stop words, emoji: the best hit, which the floor must keep out.
 * It prints both distributions, the gap between them, and how many relevant hits each candidate floor keeps.
 * Asserts nothing; `--json` prints the rows.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentRoots } from "../src/app/index-app.ts";
import { STATIC_FLOOR } from "../src/embedders/static.ts";
import type { Embedder } from "../src/embedders/types.ts";
import { indexPaths } from "../src/indexer/indexer.ts";
import { BACKGROUND_MARGIN, embedQuery } from "../src/search/background.ts";
import { searchHybrid } from "../src/search/hybrid.ts";
import { refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import type { Store } from "../src/store/types.ts";
import { evalEmbedder } from "./eval-embedder.ts";
import { loadJudged, usableFixturePaths } from "./search-eval/judged.ts";

interface Lists {
  related_to_clients: string[];
  unrelated: Record<string, string[]>;
}

interface Row {
  corpus: "real" | "clients";
  group: string;
  query: string;
  /** The best hit's similarity by meaning, or null when meaning found nothing (no word the embedder knows). */
  best: number | null;
  /** Related queries with judged answers: the similarity of each relevant event in meaning's first ten. */
  relevant?: number[];
  /** The query's similarity to its nearest background text (src/search/background.ts). */
  background: number;
}

const json = process.argv.includes("--json");
const lists = JSON.parse(readFileSync(new URL("./search-eval/unrelated.json", import.meta.url), "utf8")) as Lists;
const clientsDir = new URL("../test/fixtures/clients/", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "cairn-floor-"));

/** Meaning alone, without a floor: the similarities a floor would be chosen among. */
async function similarities(store: Store, embedder: Embedder, query: string, depth = 10) {
  try {
    const r = await searchHybrid(store, query, { embedder, mode: "vector", limit: depth, floor: -1 });
    return r.hits.map((h) => ({ id: h.event_id, sim: h.signals.find((s) => s.source === "meaning")?.score ?? 0 }));
  } catch {
    return []; // a query the language refuses (emoji, a lone stop sign): no hits on any surface
  }
}

async function background(embedder: Embedder, query: string): Promise<number> {
  const { vector, background } = await embedQuery(embedder, query);
  return vector?.some((x) => x !== 0) && background !== undefined ? background : -1;
}

async function corpus(name: "real" | "clients", paths: Parameters<typeof indexPaths>[0]["paths"]): Promise<Row[]> {
  const store = openStore(join(dir, `${name}.db`));
  try {
    indexPaths({ store, paths });
    const { embedder } = evalEmbedder();
    await refreshVectors(store, embedder);
    const rows: Row[] = [];
    if (name === "real") {
      for (const q of loadJudged()) {
        const hits = await similarities(store, embedder, q.query);
        const relevant = hits.filter((h) => q.relevant[h.id] !== undefined).map((h) => h.sim);
        const bg = await background(embedder, q.query);
        rows.push({
          corpus: name,
          group: `related: ${q.type}`,
          query: q.query,
          best: hits[0]?.sim ?? null,
          relevant,
          background: bg,
        });
      }
    } else {
      for (const query of lists.related_to_clients) {
        const hits = await similarities(store, embedder, query);
        const bg = await background(embedder, query);
        rows.push({
          corpus: name,
          group: "related: about the clients' task",
          query,
          best: hits[0]?.sim ?? null,
          background: bg,
        });
      }
    }
    for (const [group, queries] of Object.entries(lists.unrelated)) {
      for (const query of queries) {
        const hits = await similarities(store, embedder, query);
        const bg = await background(embedder, query);
        rows.push({ corpus: name, group: `unrelated: ${group}`, query, best: hits[0]?.sim ?? null, background: bg });
      }
    }
    return rows;
  } finally {
    store.close();
  }
}

function clientsHome(): string {
  const home = join(dir, "home");
  mkdirSync(home);
  for (const agent of readdirSync(clientsDir))
    for (const version of readdirSync(join(clientsDir, agent)))
      cpSync(join(clientsDir, agent, version, "home"), home, { recursive: true });
  return home;
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

try {
  const home = clientsHome();
  const rows = [
    ...(await corpus("real", usableFixturePaths())),
    ...(await corpus("clients", agentRoots({ HOME: home }))),
  ];
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
  } else {
    console.log(`similarity by meaning (${evalEmbedder().embedder.id}), no floor`);
    console.log(
      `${"corpus".padEnd(8)} ${"queries".padEnd(40)} ${"n".padStart(3)} ${"none".padStart(5)}  best hit: min  median  max`,
    );
    const groups = [...new Set(rows.map((r) => `${r.corpus}\t${r.group}`))];
    for (const g of groups) {
      const [c, group] = g.split("\t") as [string, string];
      const sel = rows.filter((r) => r.corpus === c && r.group === group);
      const best = sel.flatMap((r) => (r.best === null ? [] : [r.best])).sort((a, b) => a - b);
      const figures = best.length
        ? `${best[0]!.toFixed(3).padStart(13)} ${pct(best, 0.5).toFixed(3).padStart(7)} ${best.at(-1)!.toFixed(3).padStart(5)}`
        : "            -       -     -";
      console.log(
        `${c.padEnd(8)} ${group.padEnd(40)} ${String(sel.length).padStart(3)} ${String(sel.length - best.length).padStart(5)} ${figures}`,
      );
    }
    const unrelated = rows.filter((r) => r.group.startsWith("unrelated") && r.best !== null).map((r) => r.best!);
    const relevant = rows.flatMap((r) => r.relevant ?? []).sort((a, b) => a - b);
    const relatedBest = rows.filter((r) => r.group.startsWith("related") && r.best !== null).map((r) => r.best!);
    const worst = unrelated.length ? Math.max(...unrelated) : 0;
    console.log(
      `\nunrelated queries' best hit: at most ${worst.toFixed(3)} (${unrelated.length} with any hit by meaning, ${rows.filter((r) => r.group.startsWith("unrelated") && r.best === null).length} with none)`,
    );
    console.log(
      `relevant events meaning ranks in its first ten: ${relevant.length}, similarity min ${relevant[0]?.toFixed(3)}, p10 ${pct(relevant, 0.1).toFixed(3)}, median ${pct(relevant, 0.5).toFixed(3)}`,
    );
    console.log(`related queries' best hit: min ${Math.min(...relatedBest).toFixed(3)}`);
    console.log("\nfloor   relevant kept   related queries with a hit   unrelated queries with a hit");
    const own = evalEmbedder().embedder.floor ?? STATIC_FLOOR;
    // a hit counts when it clears the floor and the query's background bar (src/search/background.ts)
    const bar = (r: Row, floor: number, margin: number | null) =>
      margin === null ? floor : Math.max(floor, r.background + margin);
    for (const margin of [null, ...new Set([0, 0.05, BACKGROUND_MARGIN])]) {
      console.log(`\n${margin === null ? "floor alone" : `floor and background + ${margin.toFixed(2)}`}`);
      console.log("floor   relevant kept   related queries with a hit   unrelated queries with a hit");
      for (const floor of [...new Set([0.2, 0.25, 0.3, 0.35, 0.4, own])].sort((a, b) => a - b)) {
        const related = rows.filter((r) => r.group.startsWith("related") && r.best !== null);
        const kept = rows.reduce((n, r) => n + (r.relevant ?? []).filter((x) => x >= bar(r, floor, margin)).length, 0);
        const withHit = related.filter((r) => r.best! >= bar(r, floor, margin)).length;
        const unrelatedRows = rows.filter((r) => r.group.startsWith("unrelated") && r.best !== null);
        const leaks = unrelatedRows.filter((r) => r.best! >= bar(r, floor, margin)).length;
        console.log(
          `${floor.toFixed(2).padEnd(7)} ${`${kept}/${relevant.length}`.padStart(14)} ${`${withHit}/${related.length}`.padStart(28)} ${`${leaks}/${unrelatedRows.length}`.padStart(30)}${floor === own ? "   <- the embedder's floor" : ""}`,
        );
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
