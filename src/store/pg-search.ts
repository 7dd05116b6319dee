/**
 * Event search on PostgreSQL: text queries match the `tsvector` column through its GIN index and rank by
 * `ts_rank` with the column weights (the score is the negated rank, so lower is better as with BM25); filter-only
 * queries list events newest first from the time indexes. Same filters and order as the SQLite search.
 */

import { facetToken } from "./fts-text.ts";
import type { PgConnection } from "./pg-bridge.ts";
import { facetQuery, RANK_WEIGHTS, tsQuery } from "./pg-fts.ts";
import { likeEscape, PG_E_COLUMNS, pgEvent } from "./pg-read.ts";
import type { EventHit, EventQuery } from "./query-types.ts";

export interface PgFilters {
  where: string[];
  params: unknown[];
  joinSessions: boolean;
}

/** The query's filters as conditions on `e` (and `s` when sessions are joined); parameters numbered after `from`. */
export function pgFilters(q: EventQuery, from = 0): PgFilters {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${from + params.length}`;
  };
  // One value as `=`: the planner reads (event_type, newest first) in order for it, never for `= ANY(…)`.
  const oneOf = (col: string, values: readonly string[]) =>
    values.length === 1 ? `${col} = ${p(values[0])}` : `${col} = ANY(${p(values)}::text[])`;
  if (q.types?.length) where.push(oneOf("e.event_type", q.types));
  if (q.providers?.length) where.push(oneOf("e.provider", q.providers));
  if (q.statuses?.length) where.push(oneOf("e.status", q.statuses));
  if (q.sessionPrefix) where.push(`starts_with(e.session_id, ${p(q.sessionPrefix)})`);
  if (q.since) where.push(`e."timestamp" >= ${p(q.since)}`);
  if (q.until) where.push(`e."timestamp" <= ${p(q.until)}`);
  if (q.file) where.push(`e.file_path ILIKE ${p(`%${likeEscape(q.file)}%`)}`);
  if (q.command) {
    const v = p(`%${likeEscape(q.command)}%`);
    where.push(`(e.command ILIKE ${v} OR (e.event_type = 'command' AND e.text ILIKE ${v}))`);
  }
  if (q.tool) where.push(`lower(e.tool_name) = lower(${p(q.tool)})`);
  if (q.secrets)
    where.push("EXISTS (SELECT 1 FROM event_edges x WHERE x.src = e.event_id AND x.edge_type = 'exposes')");
  let join = false;
  if (q.projects?.length) {
    join = true;
    where.push(
      `(${q.projects.map((x) => `(lower(s.project) = lower(${p(x)}) OR s.cwd ILIKE ${p(`%${likeEscape(x)}%`)})`).join(" OR ")})`,
    );
  }
  if (q.machines?.length) {
    join = true;
    where.push(`s.machine = ANY(${p(q.machines)}::text[])`);
  }
  if (q.users?.length) {
    join = true;
    where.push(`s.user_name = ANY(${p(q.users)}::text[])`);
  }
  if (q.includeSubagents === false) {
    join = true;
    where.push("s.kind NOT IN ('subagent', 'exec')");
  }
  return { where, params, joinSessions: join };
}

export function sessionJoinOf(f: PgFilters): string {
  return f.joinSessions ? "JOIN sessions s ON s.session_id = e.session_id" : "";
}

type Row = Record<string, unknown> & { score: number | null };

export function createPgSearch(db: PgConnection) {
  const toHits = (rows: Row[]): EventHit[] =>
    rows.map((r) => ({ event: pgEvent(r as never), score: r.score === null ? null : Number(r.score) }));

  function facets(q: EventQuery): string | null {
    const groups: string[][] = [];
    if (q.types?.length) groups.push(q.types.map((t) => facetToken("k", t)));
    if (q.providers?.length) groups.push(q.providers.map((x) => facetToken("p", x)));
    if (q.statuses?.length) groups.push(q.statuses.map((s) => facetToken("s", s)));
    if (q.tool) groups.push([facetToken("t", q.tool)]);
    if (q.secrets) groups.push([facetToken("k", "secret")]);
    return facetQuery(groups);
  }

  function ranked(q: EventQuery, text: string): EventHit[] {
    const f = pgFilters(q, 2);
    const fq = facets(q);
    const match = fq ? `(${text}) & ${fq}` : text;
    const sql = `SELECT ${PG_E_COLUMNS}, -ts_rank('${RANK_WEIGHTS}', e.fts, $1::tsquery) AS score
      FROM session_events e ${sessionJoinOf(f)}
      WHERE e.fts @@ $1::tsquery ${f.where.length ? `AND ${f.where.join(" AND ")}` : ""}
      ORDER BY score, e.event_id LIMIT $2`;
    return toHits(db.query<Row>(sql, [match, ...[q.limit], ...f.params]));
  }

  function newest(q: EventQuery): EventHit[] {
    const f = pgFilters(q, 1);
    const sql = `SELECT ${PG_E_COLUMNS}, NULL AS score FROM session_events e ${sessionJoinOf(f)}
      ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""}
      ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC LIMIT $1`;
    return toHits(db.query<Row>(sql, [q.limit, ...f.params]));
  }

  return {
    searchEvents(q: EventQuery): EventHit[] {
      const text = q.match === null ? null : tsQuery(q.match);
      return text !== null ? ranked(q, text) : newest(q);
    },
  };
}
