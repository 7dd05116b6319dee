/**
 * A `TextMatch` in SQLite FTS5's query syntax. The tokenizer lowercases Unicode words and keeps `_` inside them;
 * the `idents` column holds the word parts of compound identifiers (fts-text.ts), so a compound word matches as
 * itself or as the phrase of its parts.
 */
import type { MatchTerm, TextMatch } from "./query-types.ts";

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function termExpression(t: MatchTerm): string {
  const phrase = quote(t.tokens.join(" "));
  return t.tokens.length === 1 && t.idents ? `(${phrase} OR {idents}: ${quote(t.idents.join(" "))})` : phrase;
}

/** The MATCH expression, or null when nothing positive is asked for (exclusions need words to subtract from). */
export function ftsMatch(m: TextMatch): string | null {
  const groups = m.all
    .filter((g) => g.length > 0)
    .map((g) => g.map(termExpression).reduce((acc, e) => `(${acc} OR ${e})`));
  if (groups.length === 0) return null;
  let expr = groups.join(" AND ");
  for (const n of m.none) expr = `(${expr}) NOT ${termExpression(n)}`;
  return expr;
}
