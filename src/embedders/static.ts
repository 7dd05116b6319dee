/**
 * The default embedder: works offline with nothing to download. A text's vector has two parts:
 * - meaning: the average of word vectors (shipped in `data/word-vectors.bin`: general English from GloVe beside
 *   vectors learnt from software documentation) over the words of the text and the word parts of its
 *   identifiers, each weighted by how rare the word is (a/(a + p(w)), p from its rank), so "terminal" lands near
 *   "tty", "refused" near "rejected" and "failing" near "failed";
 * - code: hashed features of what word vectors do not know: compound identifiers, paths, error codes and words
 *   outside the vocabulary (`parseTranscript`, `src/auth.ts`, `TS2304`, `vitest`), so the same symbol pulls
 *   texts together even without a shared meaning.
 * Both parts are normalised, weighted and joined; the result has unit length. Deterministic and synchronous.
 */
import { type Embedder, unitLength } from "./types.ts";
import { fnv1a, shippedWordVectors, type WordVectors } from "./word-vectors.ts";

const HASH_DIMS = 56;
const MEANING_WEIGHT = 1;
const CODE_WEIGHT = 0.6;
/** Rank at which a word's weight is one half: the most frequent words ("the", "of", "is") count for little. */
const HALF_WEIGHT_RANK = 100;
/** Only the start of a long text is read: bundles are bounded already, and the start says what it is about. */
const MAX_CHARS = 6_000;

const TOKEN = /[A-Za-z_$][\w$]*(?:[./:@-]+[\w$]+)*|[0-9]+[A-Za-z_][\w]*/g;
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const CODE_LIKE = /[._/:@$]|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;

/** Names the shipped table (its header's `version`) and the feature scheme: a change to either re-embeds. */
const TABLE_VERSION = "general100+software100:3";
export const STATIC_EMBEDDER_ID = `static:${TABLE_VERSION}+hash${HASH_DIMS}:v1`;

/** Calibrated by `npm run eval:floor` (bench/search-floor.ts); see docs/search.md. */
export const STATIC_FLOOR = 0.35;

export interface StaticFeatures {
  /** Word rank → occurrences. */
  words: Map<number, number>;
  /** Lowercased code token → occurrences. */
  code: Map<string, number>;
}

/**
 * What one token adds to the features, in order: word ranks (numbers) and code tokens (strings). Tokens repeat
 * across bundles (paths, tool names, common words), so each table remembers what its tokens add instead of
 * matching them again: the features, and their order, are the same either way.
 */
type TokenFeatures = ReadonlyArray<number | string>;
/** Tokens remembered per table; past this the memory starts over (a run over many distinct identifiers). */
const MEMO_TOKENS = 200_000;
const memos = new WeakMap<WordVectors, Map<string, TokenFeatures>>();

function tokenFeatures(token: string, vectors: WordVectors): TokenFeatures {
  const out: Array<number | string> = [];
  if (CODE_LIKE.test(token)) {
    out.push(token.toLowerCase());
    const base = token.split(/[/\\]/).pop();
    if (base && base !== token) out.push(base.toLowerCase());
  }
  for (const part of token.match(HUMP) ?? []) {
    if (part.length < 2 || /^[0-9]+$/.test(part)) continue;
    const word = part.toLowerCase();
    out.push(vectors.rank(word) ?? word);
  }
  return out;
}

export function staticFeatures(text: string, vectors: WordVectors): StaticFeatures {
  const words = new Map<number, number>();
  const code = new Map<string, number>();
  let memo = memos.get(vectors);
  if (!memo) {
    memo = new Map();
    memos.set(vectors, memo);
  }
  for (const m of text.slice(0, MAX_CHARS).matchAll(TOKEN)) {
    const token = m[0];
    let features = memo.get(token);
    if (features === undefined) {
      if (memo.size >= MEMO_TOKENS) memo.clear();
      // A token matched out of a text may share the text's memory: kept as it is, it would keep the whole text.
      const own = ` ${token}`.slice(1);
      features = tokenFeatures(own, vectors);
      memo.set(own, features);
    }
    for (const f of features) {
      if (typeof f === "number") words.set(f, (words.get(f) ?? 0) + 1);
      else code.set(f, (code.get(f) ?? 0) + 1);
    }
  }
  return { words, code };
}

/**
 * The meaning part of a text's vector: per part of the word vectors, the rarity-weighted average, with the
 * direction every text shares (the table's `common` component, measured on software text) taken out, so that a
 * text made of everyday words is not close to everything.
 */
export function meaningVector(
  words: ReadonlyMap<number, number>,
  vectors: WordVectors,
  meaning: Float32Array = new Float32Array(vectors.dims),
): Float32Array {
  meaning.fill(0);
  for (const [rank, count] of words) {
    const weight = (rank + 1) / (rank + 1 + HALF_WEIGHT_RANK);
    vectors.addTo(rank, weight * (1 + Math.log(count)), meaning);
  }
  const common = vectors.header["common"] as number[][] | undefined;
  let at = 0;
  vectors.parts.forEach((n, p) => {
    const part = meaning.subarray(at, at + n);
    unitLength(part);
    const c = common?.[p];
    if (c && part.some((x) => x !== 0)) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += part[i]! * c[i]!;
      for (let i = 0; i < n; i++) part[i]! -= dot * c[i]!;
      unitLength(part);
    }
    at += n;
  });
  return meaning;
}

/** The length of the static embedder's vectors over a table. */
export const staticDimension = (vectors: WordVectors): number => vectors.dims + HASH_DIMS;

/** A text's vector, into `out` when given (a worker embedding thousands reuses one). */
export function staticVector(text: string, vectors: WordVectors, out?: Float32Array): Float32Array {
  return featureVector(staticFeatures(text, vectors), vectors, out);
}

/**
 * The parts' working arrays, reused: each array a call allocated was memory outside the heap that the collector
 * freed late (a worker embedding tens of thousands of texts grew by tens of megabytes).
 */
let scratch: { meaning: Float32Array; hashed: Float32Array } | null = null;

/** A text's vector from its features: the meaning part and the hashed code part, weighted and joined. */
export function featureVector(
  { words, code }: StaticFeatures,
  vectors: WordVectors,
  out: Float32Array = new Float32Array(vectors.dims + HASH_DIMS),
): Float32Array {
  if (scratch?.meaning.length !== vectors.dims)
    scratch = { meaning: new Float32Array(vectors.dims), hashed: new Float32Array(HASH_DIMS) };
  const meaning = meaningVector(words, vectors, scratch.meaning);
  const hashed = scratch.hashed.fill(0);
  for (const [token, count] of code) {
    const h = fnv1a(token);
    hashed[h % HASH_DIMS]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(count));
  }
  // Each part (general English, software text) was averaged on its own: a word one part lacks does not dilute it.
  unitLength(meaning);
  unitLength(hashed);
  for (let i = 0; i < vectors.dims; i++) out[i] = meaning[i]! * MEANING_WEIGHT;
  for (let i = 0; i < HASH_DIMS; i++) out[vectors.dims + i] = hashed[i]! * CODE_WEIGHT;
  return unitLength(out);
}

/** The default embedder over the shipped word vectors (or a given table, for tests). */
export function createStaticEmbedder(vectors?: WordVectors): Embedder {
  let table = vectors ?? null;
  const load = () => {
    if (!table) {
      table = shippedWordVectors();
      if (table.header["version"] !== TABLE_VERSION)
        throw new Error(
          `cairn's word vectors are version ${table.header["version"]}, this cairn expects ${TABLE_VERSION}`,
        );
    }
    return table;
  };
  return {
    id: vectors ? `static:test-${vectors.size}x${vectors.dims}+hash${HASH_DIMS}` : STATIC_EMBEDDER_ID,
    get dimension() {
      return staticDimension(load());
    },
    floor: STATIC_FLOOR,
    async embed(texts, purpose) {
      const t = load();
      return texts.map((text) => {
        const features = staticFeatures(text, t);
        // A query none of whose words the table knows (gibberish, a misspelling) means nothing to it: its code
        // features alone hash onto the same few dimensions as unrelated bundles, and found them "by meaning".
        if (purpose === "query" && features.words.size === 0) return new Float32Array(staticDimension(t));
        return featureVector(features, t);
      });
    },
  };
}
