/**
 * The full-text side of the PostgreSQL index, in cairn's own tokens. PostgreSQL's parser would split
 * `snake_case` and `TS2304`-like words differently from the SQLite index, so cairn writes the `tsvector` itself
 * (as FTS5's unicode61 tokenizer with `_` kept inside words would: lowercase Unicode letters, digits and `_`,
 * diacritics removed) and turns a `TextMatch` into a `tsquery` of the same lexemes. Each prepared column has its
 * weight: A the text as written, B identifier parts, C word stems, D facets; ranking weighs them as SQLite's BM25
 * does (facets not at all).
 */
import type { MatchTerm, TextMatch } from "../query-types.ts";
import { stemOf } from "../shared/stems.ts";

/** ts_rank's weights in {D, C, B, A} order. */
export const RANK_WEIGHTS = "{0, 0.3, 0.4, 1.0}";
/** PostgreSQL keeps positions up to this; a lexeme longer than its limit cannot be stored. */
const MAX_POS = 16_383;
const MAX_LEXEME_BYTES = 2_000;
/** Positions kept per lexeme (PostgreSQL keeps at most 256). */
const MAX_POSITIONS = 256;
const GAP = 8;

export function lexemes(s: string): string[] {
  return (
    s
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  );
}

function quoteLexeme(w: string): string {
  return `'${w.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** The tsvector literal of an event's prepared columns [text, idents, facets, stems]. */
export function tsvectorOf(cols: readonly [string, string, string, string]): string {
  const [text, idents, facets, stems] = cols;
  const positions = new Map<string, string[]>();
  let pos = 1;
  for (const [col, weight] of [
    [text, "A"],
    [idents, "B"],
    [stems, "C"],
    [facets, "D"],
  ] as const) {
    for (const w of lexemes(col)) {
      if (Buffer.byteLength(w) > MAX_LEXEME_BYTES) continue;
      const list = positions.get(w) ?? [];
      if (list.length === 0) positions.set(w, list);
      if (list.length < MAX_POSITIONS) list.push(`${Math.min(pos, MAX_POS)}${weight}`);
      pos++;
    }
    pos += GAP;
  }
  return [...positions].map(([w, p]) => `${quoteLexeme(w)}:${p.join(",")}`).join(" ");
}

/** The words of a value as a phrase under some weights ("" for any column). */
function phrase(tokens: readonly string[], weights: string): string {
  const words = tokens.flatMap(lexemes).map((w) => `${quoteLexeme(w)}${weights ? `:${weights}` : ""}`);
  if (words.length === 0) return "";
  return words.length === 1 ? words[0]! : `(${words.join(" <-> ")})`;
}

function termQuery(t: MatchTerm): string {
  const words = phrase(t.tokens, "");
  if (t.inflect && t.tokens.length === 1) {
    const stem = stemOf(t.tokens[0]!);
    return stem === null || stem === t.tokens[0] ? words : `(${words} | ${phrase([stem], "C")})`;
  }
  // As written: out of the stems column when a plain word could be found there (as sqlite/fts-match.ts does).
  const exact = t.tokens.some((w) => stemOf(w) !== null) ? phrase(t.tokens, "ABD") : words;
  return t.tokens.length === 1 && t.idents ? `(${exact} | ${phrase(t.idents, "B")})` : exact;
}

/** The tsquery text of a match, or null when nothing positive is asked for. */
export function tsQuery(m: TextMatch): string | null {
  const groups = m.all
    .filter((g) => g.length > 0)
    .map((g) => g.map(termQuery).filter((e) => e !== ""))
    .filter((g) => g.length > 0)
    .map((g) => (g.length === 1 ? g[0]! : `(${g.join(" | ")})`));
  if (groups.length === 0) return null;
  // Exclusions side by side, not each around the last: the depth stays the same however many there are.
  const excluded = m.none.map((n) => termQuery({ ...n, inflect: false })).filter((t) => t !== "");
  return [groups.join(" & "), ...excluded.map((t) => `!${t}`)].join(" & ");
}

/** Facet tokens as a tsquery on the facets' weight: every group must match one of its tokens. */
export function facetQuery(groups: readonly string[][]): string | null {
  const parts = groups.filter((g) => g.length > 0).map((g) => `(${g.map((t) => `${quoteLexeme(t)}:D`).join(" | ")})`);
  return parts.length ? parts.join(" & ") : null;
}

/** Any of some tokens, under any weight. */
export function anyToken(tokens: readonly string[]): string {
  return tokens.length === 1 ? quoteLexeme(tokens[0]!) : `(${tokens.map(quoteLexeme).join(" | ")})`;
}
