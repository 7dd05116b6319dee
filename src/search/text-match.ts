/**
 * Parsed terms as the store's `TextMatch`, in the tokens text was indexed with (store/shared/fts-text.ts): the tokenizer
 * lowercases Unicode words and keeps `_` inside them, and the index also holds the word parts of compound
 * identifiers. So `parseTranscript` matches the whole token or the parts "parse transcript", and a path or
 * `dotted.name` becomes a phrase of its pieces. The store writes the backend's syntax.
 */
import type { MatchTerm, TextMatch } from "../store/query-types.ts";
import type { TextTerm } from "./query.ts";

/** Words as the index's tokenizer sees them. */
export function ftsTokens(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  );
}

const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/** The identifier parts of one typed word, when it is a compound identifier. */
function parts(word: string): string[] | null {
  if (!/._|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]+[A-Za-z]/.test(word)) return null;
  const p = word
    .split(/_+/)
    .flatMap((w) => w.match(HUMP) ?? [])
    .map((w) => w.toLowerCase());
  return p.length >= 2 ? p : null;
}

function matchTerm(term: TextTerm): MatchTerm | null {
  const tokens = ftsTokens(term.text);
  if (tokens.length === 0) return null;
  if (term.phrase || tokens.length > 1) return { tokens, idents: null };
  const idents = parts(term.text.replace(/[^\p{L}\p{N}_]/gu, ""));
  return { tokens, idents, ...(idents === null ? { inflect: true } : {}) };
}

/**
 * The most terms (words, phrases, exclusions) a query is matched by; the rest of a longer one is read by meaning
 * only. A pasted paragraph of a hundred words cost BM25 a pass per word over every match it ranked (170 ms on 3,000
 * events, where a few words take 5) and ranked by little more than its first words did (docs/search.md).
 */
export const MAX_MATCH_TERMS = 32;

/** The match, or null when no term has words. Negated terms need a positive term to subtract from. */
export function buildMatch(terms: readonly TextTerm[]): TextMatch | null {
  const all: MatchTerm[][] = [];
  const none: MatchTerm[] = [];
  let taken = 0;
  for (const t of terms) {
    if (taken === MAX_MATCH_TERMS) break;
    const m = matchTerm(t);
    if (m === null) continue;
    taken++;
    if (t.negated) none.push(m);
    else if (t.or && all.length > 0) all[all.length - 1]!.push(m);
    else all.push([m]);
  }
  return all.length === 0 ? null : { all, none };
}
