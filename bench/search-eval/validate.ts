/**
 * Checks the hand-judged search queries in `queries.json` against the real transcripts:
 * every judged event exists, ids are unique per query, every query has a grade-2 event, the set is big enough,
 * queries use plain words (no cairn prefixes, quotes, OR or exclusions), and no paraphrase query shares a content
 * word (after stopwords and a crude stemmer) with the text of any event judged relevant to it.
 *
 * Usage: node bench/search-eval/validate.ts [--db PATH]
 * Without --db the usable fixtures are indexed into a temporary database first. Exits 1 on any violation.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { FILTERS, PREFIXES } from "../../src/search/query.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { ReadonlyStore } from "../../src/store/types.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { realFixturesDir } from "../corpus.ts";
import { type JudgedQuery, QUERY_KINDS, type QueryKind, USABLE_FIXTURES } from "./judged.ts";

const MIN_QUERIES = 40;
const MIN_PARAPHRASES = 15;

export const STOPWORDS = new Set(
  (
    "the a an of to in on for and or is was with what which where when why how did do we i it that this my our " +
    "from by at be get got"
  ).split(" "),
);

/** Crude stemmer: lowercase, then strip one trailing `ing`, `ed`, `es` or `s` if at least three letters remain. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  for (const suffix of ["ing", "ed", "es", "s"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The query's content words, stemmed. */
export function contentStems(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => !STOPWORDS.has(w))
      .map(stem),
  );
}

/** Cairn search syntax a plain-words query must not contain. */
function syntaxProblems(query: string): string[] {
  const keys = new Set<string>([...PREFIXES, ...FILTERS]);
  const out: string[] = [];
  if (query.includes('"')) out.push("contains a quote");
  for (const token of query.split(/\s+/).filter(Boolean)) {
    const key = /^-?([a-z]+):/i.exec(token)?.[1]?.toLowerCase();
    if (key && keys.has(key)) out.push(`uses the prefix '${key}:'`);
    if (token === "OR") out.push("uses OR");
    if (token.startsWith("-")) out.push(`starts a word with '-' (${token})`);
  }
  return out;
}

/** Ids listed twice in one query's `relevant` object (JSON.parse would silently keep the last). */
function duplicateIds(raw: string): string[][] {
  return [...raw.matchAll(/"relevant"\s*:\s*\{([^}]*)\}/g)].map((m) => {
    const ids = [...(m[1] ?? "").matchAll(/"([^"]+)"\s*:/g)].map((k) => k[1]!);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
}

/** A short name for the transcript an event came from. */
function transcriptOf(event: SessionEvent): string {
  if (event.source_file.includes("codemie-incremental-subagents")) return "subagents";
  return basename(event.source_file).split("__")[0] ?? event.source_file;
}

function openIndex(dbArg: string | undefined): { store: ReadonlyStore & { close(): void }; cleanup: () => void } {
  if (dbArg) return { store: openStore(dbArg, { readonly: true }), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), "cairn-search-eval-"));
  const store = openStore(join(dir, "eval.db"));
  const root = realFixturesDir();
  indexPaths({ store, paths: USABLE_FIXTURES.map((p) => join(root, p)), parallel: false });
  return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function main(): number {
  const here = dirname(fileURLToPath(import.meta.url));
  const raw = readFileSync(join(here, "queries.json"), "utf8");
  const queries = JSON.parse(raw) as JudgedQuery[];
  const dbIndex = process.argv.indexOf("--db");
  const { store, cleanup } = openIndex(dbIndex >= 0 ? process.argv[dbIndex + 1] : undefined);
  const problems: string[] = [];
  const dupes = duplicateIds(raw);
  const seenIds = new Set<string>();
  const perTranscript = new Map<string, Partial<Record<QueryKind, number>>>();
  const perKind = new Map<string, number>();
  try {
    console.log(`${"id".padEnd(5)} ${"type".padEnd(10)} ${"rel".padStart(3)} ${"g2".padStart(3)}  transcript`);
    queries.forEach((q, i) => {
      const fail = (msg: string) => problems.push(`${q.id}: ${msg}`);
      if (seenIds.has(q.id)) fail("query id used twice");
      seenIds.add(q.id);
      if (!(QUERY_KINDS as readonly string[]).includes(q.type)) fail(`unknown type '${q.type}'`);
      if (!q.query?.trim() || !q.note?.trim()) fail("empty query or note");
      for (const p of syntaxProblems(q.query)) fail(`query ${p}`);
      for (const id of dupes[i] ?? []) fail(`event ${id} listed twice`);
      const entries = Object.entries(q.relevant ?? {});
      if (!entries.some(([, g]) => g === 2)) fail("no grade-2 event");
      const stems = q.type === "paraphrase" ? contentStems(q.query) : new Set<string>();
      const transcripts = new Set<string>();
      for (const [id, grade] of entries) {
        if (grade !== 1 && grade !== 2) fail(`event ${id} has grade ${String(grade)}`);
        const event = store.getEvent(id);
        if (!event) {
          fail(`event ${id} not found`);
          continue;
        }
        transcripts.add(transcriptOf(event));
        if (grade === 2) perKind.set(event.event_type, (perKind.get(event.event_type) ?? 0) + 1);
        const textStems = new Set(words(event.text).map(stem));
        const shared = [...stems].filter((s) => textStems.has(s));
        if (shared.length > 0) fail(`paraphrase shares [${shared.join(", ")}] with ${id} (${event.event_type})`);
      }
      const where = [...transcripts].sort().join("+");
      const row = perTranscript.get(where) ?? {};
      row[q.type] = (row[q.type] ?? 0) + 1;
      perTranscript.set(where, row);
      const g2 = entries.filter(([, g]) => g === 2).length;
      console.log(
        `${q.id.padEnd(5)} ${q.type.padEnd(10)} ${String(entries.length).padStart(3)} ${String(g2).padStart(3)}  ${where}`,
      );
    });
  } finally {
    store.close();
    cleanup();
  }
  const paraphrases = queries.filter((q) => q.type === "paraphrase").length;
  if (queries.length < MIN_QUERIES) problems.push(`only ${queries.length} queries (need ${MIN_QUERIES})`);
  if (paraphrases < MIN_PARAPHRASES) problems.push(`only ${paraphrases} paraphrases (need ${MIN_PARAPHRASES})`);

  const byKind = QUERY_KINDS.map((k) => `${queries.filter((q) => q.type === k).length} ${k}`).join(", ");
  console.log(`\n${queries.length} queries: ${byKind}`);
  for (const [t, n] of [...perTranscript].sort())
    console.log(`  ${t.padEnd(20)} ${QUERY_KINDS.map((k) => `${n[k] ?? 0} ${k}`).join(", ")}`);
  console.log(`grade-2 events by kind: ${[...perKind].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} problem(s):`);
    for (const p of problems) console.log(`  ${p}`);
    return 1;
  }
  console.log("\nok");
  return 0;
}

process.exitCode = main();
