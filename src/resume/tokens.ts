/**
 * Token counting for briefs. Exact counts (o200k) are costly, about 10 MB/s, so the engine counts exactly only
 * what it renders, and each distinct text once: the counter caches by text. Events carry a cheap estimate
 * (`tokens`, about four characters per token) for everything else. The exact counter parses the shipped ranks
 * (data/o200k-ranks.bin, read by embedders/shipped-ranks.ts; bpe-count.ts) with gpt-tokenizer's split pattern: loading gpt-tokenizer's own rank
 * module took most of a `cairn resume` (docs/performance.md), and its counts are the same.
 */
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/esm/encodingParams/constants";
import { shippedRankBytes } from "../embedders/shipped-ranks.ts";
import { estimateTokens } from "../topology/text.ts";
import { countWithTable, type RankTable, readRankTable } from "./bpe-count.ts";

export interface TokenCounter {
  /** The tokenizer's name, reported beside counts. */
  readonly name: string;
  count(text: string): number;
}

export interface CachedCounterOptions {
  /** Entries kept before the cache is emptied (a long-running process builds many briefs). */
  maxEntries?: number;
}

/** Wraps a counting function with a per-text cache. */
export function createCachedCounter(
  name: string,
  count: (text: string) => number,
  opts: CachedCounterOptions = {},
): TokenCounter {
  const max = opts.maxEntries ?? 50_000;
  const cache = new Map<string, number>();
  return {
    name,
    count(text: string): number {
      if (text.length === 0) return 0;
      const hit = cache.get(text);
      if (hit !== undefined) return hit;
      const n = count(text);
      if (cache.size >= max) cache.clear();
      cache.set(text, n);
      return n;
    },
  };
}

let table: RankTable | null = null;

/** The o200k ranks shipped in cairn's package, read once per process on the first count. */
function o200k(): RankTable {
  table ??= readRankTable(shippedRankBytes());
  return table;
}

/**
 * The real counter: OpenAI's o200k encoding, cached per text. Special-token text such as `<|endoftext|>` (which
 * transcripts can contain) is counted as plain text, never refused.
 */
export function createTokenCounter(opts: CachedCounterOptions = {}): TokenCounter {
  return createCachedCounter("o200k_base", (text) => countWithTable(o200k(), O200K_TOKEN_SPLIT_REGEX, text), opts);
}

/** The estimate (characters / 4), for tests and thresholds. */
export function createEstimateCounter(): TokenCounter {
  return { name: "chars/4", count: estimateTokens };
}
