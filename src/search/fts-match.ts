/**
 * Turns parsed terms into an FTS5 MATCH expression that agrees with how text was indexed (store/fts-text.ts):
 * the tokenizer lowercases Unicode words and keeps `_` inside them; the `idents` column holds the word parts of
 * compound identifiers. So `parseTranscript` matches the whole token or the parts "parse transcript", and a path
 * or `dotted.name` becomes a phrase of its pieces.
 */
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

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** The identifier parts of one typed word, when it is a compound identifier. */
function parts(word: string): string[] | null {
  if (!/._|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]+[A-Za-z]/.test(word)) return null;
  const p = word
    .split(/_+/)
    .flatMap((w) => w.match(HUMP) ?? [])
    .map((w) => w.toLowerCase());
  return p.length >= 2 ? p : null;
}

function termExpression(term: TextTerm): string | null {
  const tokens = ftsTokens(term.text);
  if (tokens.length === 0) return null;
  if (term.phrase || tokens.length > 1) return quote(tokens.join(" "));
  const split = parts(term.text.replace(/[^\p{L}\p{N}_]/gu, ""));
  return split ? `(${quote(tokens[0]!)} OR {idents}: ${quote(split.join(" "))})` : quote(tokens[0]!);
}

/** The MATCH expression, or null when no term has words. Negated terms need a positive term to subtract from. */
export function buildMatch(terms: readonly TextTerm[]): string | null {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const t of terms) {
    const e = termExpression(t);
    if (e === null) continue;
    if (t.negated) negative.push(e);
    else if (t.or && positive.length > 0) positive[positive.length - 1] = `(${positive[positive.length - 1]} OR ${e})`;
    else positive.push(e);
  }
  if (positive.length === 0) return null;
  let expr = positive.join(" AND ");
  for (const n of negative) expr = `(${expr}) NOT ${n}`;
  return expr;
}
