/**
 * Event search on PostgreSQL: text queries match the `tsvector` column and rank in the RUM index by its distance
 * (`rum.ts`), or, where the server has no RUM, through the GIN index by `ts_rank` with the column weights (the
 * negated rank). Either way the score is lower for better, as with BM25. Filter-only queries list events newest
 * first from the time indexes. Same filters as the SQLite search.
 */

import type { EventHit, EventQuery } from "../query-types.ts";
import { facetToken } from "../shared/fts-text.ts";
import type { PgConnection } from "./bridge.ts";
import { anyToken, facetQuery, RANK_WEIGHTS, tsQuery } from "./fts.ts";
import { withPlans, withSettings } from "./plan.ts";
import { likeEscape, PG_E_COLUMNS, pgEvent } from "./read.ts";
import { lexemeShares, matchShare, tokensShareAny } from "./stats.ts";
import { commandEventCondition, trigramUsable } from "./trgm.ts";

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
  where.push(...substringFilters(q, p));
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

/**
 * The `file:` and `cmd:` conditions on `e`; `p` numbers their parameters. Compared under the "C" collation, which
 * folds ASCII letters only, as the local index's LIKE does: a walk tests thousands of values, and folding each one
 * through the database's locale cost three times a plain LIKE (`file:theme.ts` at 1.1 M events tests 33,500 paths:
 * 18.5 ms, 11 ms under "C"). The trigram form (`trgm.ts`) keeps the column's collation, which its index needs.
 */
function substringFilters(q: EventQuery, p: (v: unknown) => string): string[] {
  const where: string[] = [];
  if (q.file) where.push(`e.file_path COLLATE "C" ILIKE ${p(`%${likeEscape(q.file)}%`)}`);
  if (q.command) {
    const v = p(`%${likeEscape(q.command)}%`);
    const onlyCommands = q.types?.length === 1 && q.types[0] === "command";
    where.push(
      (onlyCommands && commandEventCondition(q.command, v)) ||
        `(e.command COLLATE "C" ILIKE ${v} OR (e.event_type = 'command' AND e.text COLLATE "C" ILIKE ${v}))`,
    );
  }
  return where;
}

export function sessionJoinOf(f: PgFilters): string {
  return f.joinSessions ? "JOIN sessions s ON s.session_id = e.session_id" : "";
}

type Row = Record<string, unknown> & { score: number | null };

/** The kind, provider, status and tool filters as facet tokens: every group must match one of its tokens. */
function facetGroups(q: EventQuery): string[][] {
  const groups: string[][] = [];
  if (q.types?.length) groups.push(q.types.map((t) => facetToken("k", t)));
  if (q.providers?.length) groups.push(q.providers.map((x) => facetToken("p", x)));
  if (q.statuses?.length) groups.push(q.statuses.map((s) => facetToken("s", s)));
  if (q.tool) groups.push([facetToken("t", q.tool)]);
  if (q.secrets) groups.push([facetToken("k", "secret")]);
  return groups;
}

/** A ranked RUM search: no bitmap scan, and memory to sort about 500,000 matches (see `rankedRum`). */
const RUM_SETTINGS = { enable_bitmapscan: "off", work_mem: "32MB" } as const;

/** Commands a `cmd:` walk reads per hit wanted before it lists the trigram index's candidates instead. */
const WALK_PER_HIT = 50;
const WALK_MAX = 5_000;

/** Whether a bare `cmd:` search can list its candidates from the trigram index over commands. */
function substringIndexed(q: EventQuery): boolean {
  return q.types?.length === 1 && q.types[0] === "command" && q.command !== undefined && trigramUsable(q.command);
}

export function createPgSearch(db: PgConnection, opts: { rum: boolean; trgm: boolean }) {
  const toHits = (rows: Row[]): EventHit[] =>
    rows.map((r) => ({ event: pgEvent(r as never), score: r.score === null ? null : Number(r.score) }));

  const facets = (q: EventQuery): string | null => facetQuery(facetGroups(q));
  const shares = lexemeShares(db);

  /**
   * The facet tokens a ranked RUM search should also find in the index, as a query of their own, or null. RUM
   * walks every index entry of the words and ranks every match, and the page's filters are then checked on the
   * table; a filter whose facet is rarer than the words narrows that walk when it is a second condition on the
   * index (`error: not found` at 1.1 M events: 26,000 errors against 35,000 events holding both words, 28 -> 17
   * ms). A common facet would make RUM walk its long entry as well (`provider:codex`, half the index: 12 -> 110
   * ms), so only the rarest group, and only when rarer than the words. The facet tokens go without their weight:
   * a weight is checked on every position (slower), and the column filters still decide, so a word in the text that
   * looks like a facet token only costs a row read.
   */
  function narrowingFacet(q: EventQuery): string | null {
    if (!q.match) return null;
    const groups = facetGroups(q);
    if (groups.length === 0) return null;
    const s = shares();
    const [rarest] = groups.map((g) => ({ g, share: tokensShareAny(g, s) })).sort((a, b) => a.share - b.share);
    return rarest && rarest.share < matchShare(q.match, s) ? anyToken(rarest.g) : null;
  }

  function ranked(q: EventQuery, text: string): EventHit[] {
    const f = pgFilters(q, 2);
    const fq = facets(q);
    const match = fq ? `(${text}) & ${fq}` : text;
    const where = f.where.length ? `AND ${f.where.join(" AND ")}` : "";
    const sql = `SELECT ${PG_E_COLUMNS}, -ts_rank('${RANK_WEIGHTS}', e.fts, $1::tsquery) AS score
      FROM session_events e ${sessionJoinOf(f)} WHERE e.fts @@ $1::tsquery ${where} ORDER BY score, e.event_id LIMIT $2`;
    return toHits(db.query<Row>(sql, [match, q.limit, ...f.params]));
  }

  /**
   * RUM hands matches over in its distance order, so the inner LIMIT stops after a page (a second sort key there
   * would make it sort every match; events tied at the page's edge come in the index's order). Facets stay out of
   * the query: a kind or provider token matches a large part of the index, and RUM would rank all of it; the
   * column filters check them on the page's rows instead. The planner, which cannot tell how many events match,
   * would often pick a bitmap scan and rank every match from the table, so bitmap scans are off for this query.
   * (Ranking from the table costs about 57 µs a match, RUM's distance recomputed from each event's tsvector: 1.1 s
   * for the 15,000 errors holding "not" and "found" at 1.1 M events, where RUM's ordered scan took 0.2-0.35 s.)
   * RUM sorts every match by its distance before it hands over the first, in `work_mem`: the default 4 MB holds
   * about 60,000 and the 78,000 events holding "git" at 1.1 M spilled to disk (55-74 ms; 28-37 ms in memory).
   */
  function rankedRum(q: EventQuery, text: string): EventHit[] {
    const facet = narrowingFacet(q);
    const f = pgFilters(q, facet ? 3 : 2);
    const where = [...(facet ? ["e.fts @@ $3::tsquery"] : []), ...f.where];
    const sql = `SELECT * FROM (SELECT ${PG_E_COLUMNS}, e.fts <=> $1::tsquery AS score
        FROM session_events e ${sessionJoinOf(f)} WHERE e.fts @@ $1::tsquery ${where.map((w) => `AND ${w}`).join(" ")}
        ORDER BY e.fts <=> $1::tsquery LIMIT $2) hits
      ORDER BY score, event_id`;
    return toHits(withSettings(db, RUM_SETTINGS, sql, [text, q.limit, ...(facet ? [facet] : []), ...f.params]));
  }

  function newest(q: EventQuery): EventHit[] {
    const f = pgFilters(q, 1);
    if (opts.trgm && substringIndexed(q)) {
      const walked = newestWalked(q, Math.min(q.limit * WALK_PER_HIT, WALK_MAX));
      return walked.length >= q.limit ? walked : newestOfCandidates(q, f);
    }
    // The page's ids first, then its rows: a walk whose filters the index holds (kind, time, file path) then reads
    // no table row until the page is found.
    const sql = `SELECT ${PG_E_COLUMNS}, NULL AS score FROM session_events e WHERE e.id IN (
        SELECT e.id FROM session_events e ${sessionJoinOf(f)} ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""}
        ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC LIMIT $1)
      ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC`;
    return toHits(db.query<Row>(sql, [q.limit, ...f.params]));
  }

  /**
   * The newest page among the kind's newest `walk` events that hold the substring. When the page is full it is the
   * whole answer (no older event comes before it); a walk this short costs a few ms however rare the substring.
   */
  function newestWalked(q: EventQuery, walk: number): EventHit[] {
    const { file: _file, command: _command, ...others } = q;
    const f = pgFilters(others, 2);
    const params = [q.limit, walk, ...f.params];
    const subs = substringFilters(q, (v) => {
      params.push(v);
      return `$${params.length}`;
    });
    const sql = `SELECT ${PG_E_COLUMNS}, NULL AS score FROM session_events e WHERE e.id IN (
        SELECT e.id FROM (SELECT e.id, e."timestamp", e.event_type, e.command, e.text, e.file_path
            FROM session_events e ${sessionJoinOf(f)} ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""}
            ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC LIMIT $2) e
          WHERE ${subs.join(" AND ")} ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC LIMIT $1)
      ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC`;
    return toHits(db.query<Row>(sql, params));
  }

  /**
   * The newest page of every event holding the substring, listed by the trigram index and sorted: it costs what
   * the candidates cost (`cmd:"npm run check"` at 1.1 M events: 5,000 commands, against a walk of 42,000 that
   * found its matches only far back). Index scans are off so the planner does not walk the kind's order instead.
   */
  function newestOfCandidates(q: EventQuery, f: PgFilters): EventHit[] {
    const sql = `WITH cand AS MATERIALIZED (SELECT e.id, e."timestamp" FROM session_events e ${sessionJoinOf(f)}
        WHERE ${f.where.join(" AND ")})
      SELECT ${PG_E_COLUMNS}, NULL AS score FROM session_events e WHERE e.id IN (
        SELECT id FROM cand ORDER BY "timestamp" DESC NULLS LAST, id DESC LIMIT $1)
      ORDER BY e."timestamp" DESC NULLS LAST, e.id DESC`;
    return toHits(withPlans(db, ["enable_indexscan", "enable_seqscan"], sql, [q.limit, ...f.params]));
  }

  return {
    searchEvents(q: EventQuery): EventHit[] {
      const text = q.match === null ? null : tsQuery(q.match);
      if (text === null) return newest(q);
      return opts.rum ? rankedRum(q, text) : ranked(q, text);
    },
  };
}
