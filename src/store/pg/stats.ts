/**
 * How common the index's words are, from PostgreSQL's own statistics of the full-text column: ANALYZE (and
 * autovacuum) keeps the most common lexemes of a `tsvector` column with the share of events holding each
 * (`pg_stats.most_common_elems`, a thousand at the default statistics target). Facet tokens (`k_error`, `t_bash`)
 * are lexemes like any other, so the same numbers say how many events a kind, tool, provider or status filter
 * keeps. A ranked RUM search reads them to choose where a filter narrows (`search.ts`).
 */

import type { MatchTerm, TextMatch } from "../query-types.ts";
import { stemOf } from "../shared/stems.ts";
import type { PgConnection } from "./bridge.ts";
import { lexemes } from "./fts.ts";

export interface LexemeShares {
  /** The share of events holding a lexeme; one not among the common ones gets the rarest kept share (a bound). */
  share(lexeme: string): number;
}

/** Statistics change only when the table is analyzed: a long-lived handle reads them again after this long. */
const STATS_TTL_MS = 10 * 60_000;

/** The common lexemes' shares, read once and again after `STATS_TTL_MS`. No statistics: every lexeme shares 1. */
export function lexemeShares(db: PgConnection, now: () => number = Date.now): () => LexemeShares {
  let cached: LexemeShares | undefined;
  let readAt = 0;
  return () => {
    if (cached && now() - readAt < STATS_TTL_MS) return cached;
    const rows = db.query<{ e: string; f: number }>(
      `SELECT x.e, x.f FROM pg_stats s,
         unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs[1:array_length(s.most_common_elems, 1)]) x(e, f)
       WHERE s.schemaname = current_schema() AND s.tablename = 'session_events' AND s.attname = 'fts'`,
    );
    const shares = new Map(rows.map((r) => [r.e, Number(r.f)]));
    const rarest = rows.length ? Math.min(...shares.values()) : 1;
    cached = { share: (lexeme) => shares.get(lexeme) ?? rarest };
    readAt = now();
    return cached;
  };
}

/** About the share of events a run of tokens (a phrase) can match: its rarest word's. */
function tokensShare(tokens: readonly string[], s: LexemeShares): number {
  const words = tokens.flatMap(lexemes);
  return words.length ? Math.min(...words.map((w) => s.share(w))) : 1;
}

/** An upper bound of a term's share: its words, identifier parts and stem are alternatives (as `fts.ts` asks). */
function termShare(t: MatchTerm, s: LexemeShares): number {
  let share = tokensShare(t.tokens, s);
  if (t.idents?.length) share += tokensShare(t.idents, s);
  const stem = t.inflect && t.tokens.length === 1 ? stemOf(t.tokens[0]!) : null;
  if (stem) share += s.share(stem);
  return Math.min(1, share);
}

/**
 * About the share of events whose index entries a text match walks: its most selective group's (every group must
 * match; a group matches with any of its terms).
 */
export function matchShare(m: TextMatch, s: LexemeShares): number {
  const groups = m.all.filter((g) => g.length > 0);
  if (groups.length === 0) return 1;
  return Math.min(
    ...groups.map((g) =>
      Math.min(
        1,
        g.reduce((a, t) => a + termShare(t, s), 0),
      ),
    ),
  );
}

/** The share of events holding any of some facet tokens. */
export function tokensShareAny(tokens: readonly string[], s: LexemeShares): number {
  return Math.min(
    1,
    tokens.reduce((a, t) => a + s.share(t), 0),
  );
}
