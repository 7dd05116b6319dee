/**
 * Hybrid search: BM25 over words and nearest bundles by meaning, fused by reciprocal rank fusion (each list adds
 * 1 / (k + rank) for an event it holds). Every hit says which signals found it and where. Words alone answer
 * when there is no text to embed, no vectors from this embedder yet, or the embedder fails, and the result says
 * why in `notice`.
 */

import { errorMessage } from "../common/errors.ts";
import type { Embedder } from "../embedders/types.ts";
import { showsBundle } from "../store/shared/bundle-text.ts";
import type { ReadonlyStore } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";
import { BACKGROUND_MARGIN, embedQuery } from "./background.ts";
import { intentOf } from "./intent.ts";
import { parseQuery } from "./query.ts";
import { latestFirst } from "./recency.ts";
import {
  hitBuilder,
  type LexicalRow,
  leadCount,
  lexicalRows,
  type SearchHit,
  STOPWORDS,
  toEventQuery,
} from "./search.ts";
import { ftsTokens } from "./text-match.ts";

export const SEARCH_MODES = ["hybrid", "lexical", "vector"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** RRF's constant: ranks past the first few count for nearly the same, so neither list can dominate by score. */
export const RRF_K = 60;
/** How deep each list is read before fusing. */
const DEPTH = 50;

export interface Signal {
  source: "words" | "meaning";
  /** 1-based rank in that list. */
  rank: number;
  /** BM25 (lower is better) for words; cosine similarity for meaning. */
  score: number | null;
  /** Words: only some of the query's words matched. */
  partial?: true;
}

export interface HybridHit extends SearchHit {
  fused: number;
  signals: Signal[];
  /** How it matched: "words", "meaning", "words and meaning"; with `explain`, "words #2 + meaning #5 (0.61)". */
  why: string;
}

export interface HybridResult {
  query: string;
  /** What actually ranked the hits. */
  mode: SearchMode;
  /** Why meaning was not used (or only partly), when it was not. */
  notice: string | null;
  /** The embedder that judged meaning (its id: `model:minilm-l6@…:int8`, `static:…`), null when words alone ranked. */
  meaning_by: string | null;
  hits: HybridHit[];
}

export interface HybridOptions {
  embedder: Embedder | null;
  mode?: SearchMode;
  limit?: number;
  now?: Date;
  /** Meaning hits under this similarity are dropped; the embedder's own floor (or 0) unless given. */
  floor?: number;
  /** Each hit's `why` gives the ranks and the similarity that placed it, not only how it matched. */
  explain?: boolean;
  /** The user's home folder, for `file:~/…`. */
  home?: string;
}

export interface Ranked<T> {
  item: T;
  score: number;
  ranks: Array<{ list: number; rank: number }>;
}

/** An id at a rank of its own, where a list gives it another than its place. */
export interface RankedId {
  id: string;
  rank: number;
}

/**
 * Reciprocal rank fusion of ranked lists of ids, each list with a weight (1 unless given); a null keeps its rank
 * but names nothing, and a `RankedId` counts at the rank it names. Ties go to the better best rank, then the id.
 */
export function fuseRankings(
  lists: ReadonlyArray<ReadonlyArray<string | RankedId | null>>,
  weights: readonly number[] = [],
  k = RRF_K,
): Ranked<string>[] {
  const fused = new Map<string, Ranked<string>>();
  lists.forEach((ids, list) => {
    const weight = weights[list] ?? 1;
    ids.forEach((entryId, i) => {
      if (entryId === null) return;
      const id = typeof entryId === "string" ? entryId : entryId.id;
      const rank = typeof entryId === "string" ? i + 1 : entryId.rank;
      const entry = fused.get(id) ?? { item: id, score: 0, ranks: [] };
      entry.score += weight / (k + rank);
      entry.ranks.push({ list, rank });
      fused.set(id, entry);
    });
  });
  const best = (r: Ranked<string>) => Math.min(...r.ranks.map((x) => x.rank));
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || best(a) - best(b) || (a.item < b.item ? -1 : a.item > b.item ? 1 : 0),
  );
}

/**
 * The text to embed: the query's words and prefix values, without filters, tool names or pass/fail. A question's
 * asking words ("what did we decide about") leave: embedded, they found other questions ("how's it going?").
 */
export function semanticText(parsed: ReturnType<typeof parseQuery>): string {
  const intent = intentOf(parsed, STOPWORDS);
  const terms = intent && intent.name !== "end-state" ? intent.terms : parsed.terms;
  // Stop words carry no meaning of their own: "the" alone was "similar" to every bundle, and a misspelt query
  // ("recieve the mesage") was embedded as its one known word, "the".
  const words = terms.filter((t) => !t.negated && !ftsTokens(t.text).every((w) => STOPWORDS.has(w))).map((t) => t.text);
  for (const p of parsed.prefixes) {
    if (p.prefix === "decision" || p.prefix === "error" || p.prefix === "resume") words.push(p.value);
    if (p.prefix === "test" && !/^(pass|passed|passing|fail|failed|failing)$/i.test(p.value)) words.push(p.value);
  }
  return words.join(" ").trim();
}

function excluded(parsed: ReturnType<typeof parseQuery>): (e: SessionEvent) => boolean {
  const words = parsed.terms.filter((t) => t.negated).map((t) => t.text.toLowerCase());
  if (words.length === 0) return () => false;
  return (e) => {
    const text = e.text.toLowerCase();
    return words.some((w) => text.includes(w));
  };
}

/**
 * How far words explain the query: the share of its content words held by the best of the first word matches.
 * 1 when one event holds them all; about 0.2 for a question asked in other words than the transcript's.
 */
export function wordCoverage(parsed: ReturnType<typeof parseQuery>, lexical: readonly LexicalRow[]): number {
  const wanted = contentWords(parsed.terms);
  if (wanted.size === 0) return 0;
  let best = 0;
  for (const r of lexical.slice(0, 10)) {
    const have = new Set(ftsTokens(r.event.text));
    let held = 0;
    for (const w of wanted) if (have.has(w)) held++;
    best = Math.max(best, held / wanted.size);
  }
  return best;
}

/** The content words of a query's terms, as the index's tokenizer sees them. */
function contentWords(terms: ReturnType<typeof parseQuery>["terms"]): Set<string> {
  return new Set(
    terms
      .filter((t) => !t.negated)
      .flatMap((t) => ftsTokens(t.text))
      .filter((w) => !STOPWORDS.has(w)),
  );
}

/** Characters of an event read for the words it holds: a long output's head says what it is about. */
const HELD_CHARS = 20_000;

/**
 * How many of the words a query is ranked by (a question's subject, as `lexicalRows` ranks it) an event holds, as
 * written; a query without such words counts every event as holding its one word.
 */
export function heldWords(parsed: ReturnType<typeof parseQuery>): (e: SessionEvent) => number {
  const wanted = contentWords(intentOf(parsed, STOPWORDS)?.words ?? parsed.terms);
  return (e) => {
    if (wanted.size === 0) return 1;
    const have = new Set(ftsTokens(e.text.slice(0, HELD_CHARS)));
    let n = 0;
    for (const w of wanted) if (have.has(w)) n++;
    return n;
  };
}

/** The share of meaning's weight that goes to events words found too. */
const AGREEING_MEANING = 0.5;

/** Below this share of the nearest bundle's similarity, meaning judges a word match far from the query. */
const FAR = 0.5;

/**
 * Meaning's ranks for the events words found too: the rank among the nearest bundles, but never worse than the
 * word rank unless meaning judges the event far (under half the best similarity). The static embedder's
 * similarities are close together, so a rank of 33 can be 0.39 against the best's 0.62: sinking such a match by
 * rank put a grep call ahead of the error it was about, while a tool call at 0.12 is rightly sunk.
 */
export function agreeingRanks(
  nearest: ReadonlyArray<{ id: string; similarity: number }>,
  wordIds: readonly string[],
): Array<RankedId | null> {
  const wordRank = new Map(wordIds.map((id, i) => [id, i + 1]));
  const far = (nearest[0]?.similarity ?? 0) * FAR;
  return nearest.map(({ id, similarity }, i) => {
    const words = wordRank.get(id);
    if (words === undefined) return null;
    return { id, rank: similarity < far ? i + 1 : Math.min(i + 1, words) };
  });
}

/** Least weight words keep in the fusion: even a question in other words shares a few. */
const MIN_WORD_WEIGHT = 0.1;
const clamp = (x: number, min: number) => Math.min(1, Math.max(min, x));

/**
 * The weights of words and meaning in the fusion, from the word coverage. Words count fully once the best match
 * holds 40 % of the query's words and fade below that; meaning counts fully below 40 % and fades out by 70 %:
 * when events hold the query's own words, words alone rank them. A question in other words is ranked by meaning,
 * and the two blend in between.
 */
export function fusionWeights(coverage: number): [words: number, meaning: number] {
  return [clamp((coverage - 0.1) / 0.3, MIN_WORD_WEIGHT), clamp((0.7 - coverage) / 0.3, 0)];
}

/** How a hit matched, in plain words: "words", "some words", "meaning", "words and meaning". */
export function matchedBy(signals: readonly Signal[]): string {
  const words = signals.find((s) => s.source === "words");
  const meaning = signals.some((s) => s.source === "meaning");
  const said = words ? (words.partial ? "some words" : "words") : null;
  return said && meaning ? `${said} and meaning` : (said ?? "meaning");
}

/** The ranks and similarity behind a hit, for `explain`: "words #2 + meaning #5 (0.61)". */
export function describeSignals(signals: readonly Signal[]): string {
  return signals
    .map((s) =>
      s.source === "words"
        ? `${s.partial ? "some words" : "words"} #${s.rank}`
        : `meaning #${s.rank}${s.score === null ? "" : ` (${s.score.toFixed(2)})`}`,
    )
    .join(" + ");
}

interface MeaningRow {
  event: SessionEvent;
  similarity: number;
}

async function meaningRows(
  store: ReadonlyStore,
  embedder: Embedder | null,
  parsed: ReturnType<typeof parseQuery>,
  depth: number,
  lexical: readonly LexicalRow[],
): Promise<{ rows: MeaningRow[]; notice: string | null; background?: number }> {
  const text = semanticText(parsed);
  if (!text) return { rows: [], notice: null };
  if (!embedder) return { rows: [], notice: "no embedder is configured ('cairn embed --embedder static' adds one)" };
  const state = store.vectorInfo();
  if (state.embedder !== embedder.id || !state.any)
    return {
      rows: [],
      notice: `no vectors from ${embedder.id} yet; run 'cairn index' or 'cairn embed' to add them`,
    };
  let vector: Float32Array | undefined;
  let background: number | undefined;
  try {
    ({ vector, background } = await embedQuery(embedder, text));
  } catch (error) {
    return {
      rows: [],
      notice: `meaning unavailable (${errorMessage(error)}); ranked by words only`,
    };
  }
  if (!vector || vector.length !== state.dimension)
    return { rows: [], notice: `the embedder returned a ${vector?.length ?? 0}-dimensional query vector` };
  if (!vector.some((x) => x !== 0)) return { rows: [], notice: "the embedder knows none of the query's words" };
  const query = { ...toEventQuery(parsed, depth), match: null };
  const drop = excluded(parsed);
  const rows: MeaningRow[] = store
    .nearestEvents(vector, query)
    .map((h) => ({ event: h.event, similarity: 1 - h.distance }))
    .filter((h) => !drop(h.event));
  // Word matches with a stored vector are judged by it too, whether or not they were among the nearest: a
  // bundle just past the nearest fifty is not "far", and treating it so sank good word matches.
  const have = new Set(rows.map((r) => r.event.event_id));
  const judged = lexical.filter((r) => showsBundle(r.event) && !have.has(r.event.event_id));
  const sims = store.similarities(
    vector,
    judged.map((r) => r.event.event_id),
  );
  for (const r of judged) {
    const sim = sims.get(r.event.event_id);
    if (sim !== undefined) rows.push({ event: r.event, similarity: sim });
  }
  rows.sort((a, b) => b.similarity - a.similarity || (a.event.event_id < b.event.event_id ? -1 : 1));
  let notice: string | null = null;
  if (state.pending) {
    const counts = store.vectorState();
    notice = `meaning covers ${counts.embedded} of ${counts.bundles} bundles so far (embedding continues with 'cairn index')`;
  }
  return { rows, notice, ...(background === undefined ? {} : { background }) };
}

/** Why a hit found by neither list is there: it states the decision before it. */
export const STATES_DECISION = "the message that states the decision above";

/**
 * A decision that leads comes with the message that states it (the one it was read from), right after it: the
 * decision is the choice in a line, the message says it whole, with its reasons, and who said it.
 */
function withStatingMessages(
  store: ReadonlyStore,
  ordered: ReadonlyArray<{ item: string; score: number }>,
  pinned: ReadonlySet<string>,
  events: Map<string, SessionEvent>,
  signals: Map<string, Signal[]>,
): Array<{ item: string; score: number }> {
  const out: Array<{ item: string; score: number }> = [];
  const placed = new Set<string>();
  for (const f of ordered) {
    if (placed.has(f.item)) continue;
    placed.add(f.item);
    out.push(f);
    const event = events.get(f.item)!;
    if (!pinned.has(f.item) || event.event_type !== "decision" || !event.parent_event_id) continue;
    if (placed.has(event.parent_event_id)) continue;
    const source = events.get(event.parent_event_id) ?? store.getEvent(event.parent_event_id);
    if (!source || (source.event_type !== "user_message" && source.event_type !== "assistant_message")) continue;
    events.set(source.event_id, source);
    if (!signals.has(source.event_id)) signals.set(source.event_id, []);
    placed.add(source.event_id);
    out.push({ item: source.event_id, score: f.score });
  }
  return out;
}

export async function searchHybrid(store: ReadonlyStore, input: string, opts: HybridOptions): Promise<HybridResult> {
  const parsed = parseQuery(input, opts.now ?? new Date(), opts.home ? { home: opts.home } : {});
  const limit = opts.limit ?? 20;
  const wanted = opts.mode ?? "hybrid";
  const depth = Math.max(limit, DEPTH);
  const lexical: LexicalRow[] =
    wanted === "vector" ? [] : lexicalRows(store, parsed, wanted === "lexical" ? limit : depth);
  const meaning =
    wanted === "lexical" ? { rows: [], notice: null } : await meaningRows(store, opts.embedder, parsed, depth, lexical);
  // Meaning finds only what clears the floor: under it, a bundle is as near the query as unrelated text is to
  // anything (docs/search.md, "Nothing matches"). Word matches are still judged by every similarity (agreeingRanks).
  // A floor given for this search is taken as it is (evals, tools); otherwise the embedder's, raised for a query
  // that sits near text no history is about (background.ts).
  const floor = opts.floor ?? Math.max(opts.embedder?.floor ?? 0, (meaning.background ?? -1) + BACKGROUND_MARGIN);
  const found = (r: MeaningRow) => r.similarity >= floor;
  const mode: SearchMode =
    meaning.rows.length === 0
      ? wanted === "vector"
        ? "vector"
        : "lexical"
      : wanted === "vector"
        ? "vector"
        : "hybrid";

  const events = new Map<string, SessionEvent>();
  const signals = new Map<string, Signal[]>();
  const note = (e: SessionEvent, s: Signal) => {
    events.set(e.event_id, e);
    signals.set(e.event_id, [...(signals.get(e.event_id) ?? []), s]);
  };
  lexical.forEach((r, i) => {
    note(r.event, { source: "words", rank: i + 1, score: r.score, ...(r.partial ? { partial: r.partial } : {}) });
  });
  meaning.rows.forEach((r, i) => {
    if (found(r)) note(r.event, { source: "meaning", rank: i + 1, score: r.similarity });
  });
  const [wordWeight, meaningWeight] = wanted === "vector" ? [1, 1] : fusionWeights(wordCoverage(parsed, lexical));
  // Meaning only reaches events that bundles show; a reply or a file action found by words would otherwise lose
  // to every event both lists hold. For those, meaning is taken to agree with words, at the weaker list's weight.
  const unjudged = lexical.map((r) => (showsBundle(r.event) ? null : r.event.event_id));
  // Meaning that agrees with a word match counts half, and lifts it more than it sinks it (agreeingRanks).
  // What words missed, meaning adds at its full weight.
  const held = new Set(lexical.map((r) => r.event.event_id));
  const agree = meaningWeight * AGREEING_MEANING;
  const fused = fuseRankings(
    [
      lexical.map((r) => r.event.event_id),
      meaning.rows.map((r) => (held.has(r.event.event_id) || !found(r) ? null : r.event.event_id)),
      agreeingRanks(
        meaning.rows.map((r) => ({ id: r.event.event_id, similarity: r.similarity })),
        lexical.map((r) => r.event.event_id),
      ),
      unjudged,
    ],
    [wordWeight, meaningWeight, agree, meaning.rows.length > 0 ? Math.min(wordWeight, agree) : 0],
  );

  const toHit = hitBuilder(store, parsed);
  // "At the end" asks for the latest of the hits that match about as well as the best: matching is judged by how
  // many of the query's words an event holds, not by fused scores, which are close together (1/61 against 1/75) and
  // made nearly every hit of fifty "as good as the best", so a late loose match jumped the one holding every word.
  const holds = heldWords(parsed);
  const byRecency = parsed.recent
    ? latestFirst(
        fused,
        (f) => events.get(f.item)!.session_id,
        (f) => events.get(f.item)!.ordinal,
        (f) => holds(events.get(f.item)!),
      )
    : fused;
  // The kind the question asks for (decisions on its subject) leads as it does by words: meaning orders the rest.
  const pinned = new Set(
    lexical
      .filter((r) => r.lead)
      .slice(0, leadCount(limit))
      .map((r) => r.event.event_id),
  );
  const ordered = [
    ...lexical
      .filter((r) => pinned.has(r.event.event_id))
      .map((r) => byRecency.find((f) => f.item === r.event.event_id)!),
    ...byRecency.filter((f) => !pinned.has(f.item)),
  ];
  const paged = withStatingMessages(store, ordered, pinned, events, signals);
  const hits = paged.slice(0, limit).map(({ item, score }) => {
    const event = events.get(item)!;
    const own = signals.get(item)!;
    const words = own.find((s) => s.source === "words");
    return {
      ...toHit(event, words?.score ?? null, words?.partial),
      fused: score,
      signals: own,
      why: own.length === 0 ? STATES_DECISION : opts.explain ? describeSignals(own) : matchedBy(own),
    };
  });
  return {
    query: input,
    mode,
    notice: meaning.notice,
    meaning_by: mode === "lexical" ? null : (opts.embedder?.id ?? null),
    hits,
  };
}
