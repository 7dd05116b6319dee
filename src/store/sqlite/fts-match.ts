/**
 * A `TextMatch` in SQLite FTS5's query syntax. The tokenizer lowercases Unicode words and keeps `_` inside them;
 * the `idents` column holds the word parts of compound identifiers and `stems` the stems of plain words
 * (shared/fts-text.ts). A compound word matches as itself or as the phrase of its parts; a bare plain word also matches
 * any word with its stem ("committed" finds "commit"); a quoted word or phrase matches only as written.
 */
import type { MatchTerm, TextMatch } from "../query-types.ts";
import { stemOf } from "../shared/stems.ts";

/** The columns that hold text as written (facets included, so `k_error` can be typed). */
const EXACT = "{text idents facets}";

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function termExpression(t: MatchTerm): string {
  const words = quote(t.tokens.join(" "));
  if (t.inflect && t.tokens.length === 1) {
    // A bare word matches in every column, stems included: the words whose stem it is ("commit" finds
    // "committed"); when it is not its own stem, its stem is looked for too ("committed" finds "commit").
    const stem = stemOf(t.tokens[0]!);
    return stem === null || stem === t.tokens[0] ? words : `(${words} OR {stems}: ${quote(stem)})`;
  }
  // Anything else matches as written: kept out of the stems column when a plain word could be found there.
  const exact = t.tokens.some((w) => stemOf(w) !== null) ? `(${EXACT}: ${words})` : words;
  return t.tokens.length === 1 && t.idents ? `(${exact} OR {idents}: ${quote(t.idents.join(" "))})` : exact;
}

/**
 * The MATCH expression, or null when nothing positive is asked for (exclusions need words to subtract from). Its
 * depth stays the same however many terms it has: FTS5's parser has a small stack, and a chain of ORs nested one
 * inside the next overflowed it at about forty words ("fts5: parser stack overflow").
 */
export function ftsMatch(m: TextMatch): string | null {
  const groups = m.all
    .filter((g) => g.length > 0)
    .map((g) => (g.length === 1 ? termExpression(g[0]!) : `(${g.map(termExpression).join(" OR ")})`));
  if (groups.length === 0) return null;
  const expr = groups.join(" AND ");
  if (m.none.length === 0) return expr;
  // An exclusion removes the word as written, not its relatives.
  const none = m.none.map((n) => termExpression({ ...n, inflect: false }));
  return `(${expr}) NOT ${none.length === 1 ? none[0] : `(${none.join(" OR ")})`}`;
}
