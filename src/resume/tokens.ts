/**
 * Token counting for briefs. Exact counts (gpt-tokenizer, o200k) are costly, about 10 MB/s, so the engine counts
 * exactly only what it renders, and each distinct text once: the counter caches by text. Events carry a cheap
 * estimate (`tokens`, about four characters per token) for everything else.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { estimateTokens } from "../topology/text.ts";

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

// Transcripts can contain special-token text such as `<|endoftext|>`; it is counted as plain text, never refused.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** The real counter: OpenAI's o200k encoding through gpt-tokenizer, cached per text. */
export function createTokenCounter(opts: CachedCounterOptions = {}): TokenCounter {
  return createCachedCounter("o200k_base", (text) => countTokens(text, PLAIN), opts);
}

/** The estimate (characters / 4), for tests and thresholds. */
export function createEstimateCounter(): TokenCounter {
  return { name: "chars/4", count: estimateTokens };
}
