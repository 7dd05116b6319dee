/**
 * Word stems for the index's `stems` column, so "committed" finds `git commit` and "failing" finds "failed". Only
 * plain words are stemmed (letters, three or more); identifiers, paths and numbers keep matching exactly through
 * the `text` and `idents` columns, which hold the words as written.
 */
import { stemmer } from "stemmer";

const WORD = /^\p{L}{3,}$/u;
/** Most distinct stems kept per event: the head of a long text says what it is about. */
const MAX_STEMS = 4_000;

/** The stem of one lowercase index token, or null when it is not a plain word. */
export function stemOf(token: string): string | null {
  return WORD.test(token) ? stemmer(token) : null;
}

/**
 * Stems already computed while indexing: the same few thousand words recur in every event, and the stemmer's
 * suffix rules cost several regular expressions a word. Cleared when full, so memory stays bounded.
 */
const known = new Map<string, string | null>();
const KNOWN_MAX = 100_000;

function knownStem(token: string): string | null {
  let s = known.get(token);
  if (s === undefined) {
    s = stemOf(token);
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(token, s);
  }
  return s;
}

/** The distinct stems of the plain words in a text, in the tokenizer's lowercase form. */
export function stemsOf(text: string): string {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const s = knownStem(m[0]);
    if (s === null) continue;
    out.add(s);
    if (out.size >= MAX_STEMS) break;
  }
  return [...out].join(" ");
}
