/**
 * Event search. Text queries rank inside FTS5 first (`ORDER BY rank` over the index alone is several times faster
 * than scoring joined rows) and join only the best candidates, fetching more when filters drop too many.
 * Filter-only queries are ordered newest first; a `cmd:` value narrows through the index as a phrase, a `file:`
 * value by the names of the files whose paths hold it, before the exact substring check, so they do not scan every
 * command or file action.
 */
import type Database from "better-sqlite3";
import { CairnError } from "../../common/errors.ts";
import type { SessionEvent } from "../../topology/types.ts";
import type { EventHit, EventQuery } from "../query-types.ts";
import { facetToken } from "../shared/fts-text.ts";
import { decoded } from "./codec-sql.ts";
import { ftsMatch } from "./fts-match.ts";
import { once } from "./lazy.ts";
import { eventColumns, likeEscape, mapWhenLongLived, toEvent } from "./read.ts";
import { createSessionScopes } from "./session-rows.ts";

const COLS = eventColumns("e");
/** Most candidates a text query scores before giving up on filling its page. */
const MAX_CANDIDATES = 25_600;
/** BM25: written words weigh more than identifier parts and word stems; facets do not rank (as schema.ts sets). */
const BM25 = "bm25(events_fts, 1.0, 0.4, 0.0, 0.3)";
/** Matches ranked by BM25 at first: the newest this many (see `ranked`). */
const RANK_WINDOW = 4_000;
/** Phrase candidates few enough to read and sort directly. */
const FEW_CANDIDATES = 500;
/** Filters matching at most this many events by their facet tokens are sorted directly (a few ms per thousand). */
const FEW_FACET_MATCHES = 20_000;
/**
 * The same for filters the time indexes hold (kind, tool, provider, status, time): past this many matches, a
 * newest-first walk of an index finds a page sooner, testing each entry without reading its event.
 */
const FEW_INDEXED_MATCHES = 2_000;
/** A project whose sessions hold less than one event in this many is read session by session, not by a walk. */
const SESSION_SHARE = 200;
/** Rows of the FTS size table one slice of `warmSearch` reads (about 5 ms). */
const WARM_SLICE = 50_000;
/** A `session:` prefix naming at most this many sessions, of at most this many events, is searched in their span. */
const SPAN_SESSIONS = 64;
const SPAN_EVENTS = 200_000;
/** Most phrase candidates a `cmd:`/`file:` filter takes from the index before falling back to a scan. */
const MAX_PHRASE_CANDIDATES = 50_000;
/** Kinds whose text shows each file they name: a file action ("edit src/x.ts") and the call that named it. */
const NAMED_FILES = new Set<string>(["file_action", "tool_call"]);
/**
 * Most file names a `file:` filter narrows by. A value more files hold (`file:.ts`, `file:/Users/me`) walks the
 * newest events, where its matches are common enough to fill a page soon: narrowing by the 55 names of a
 * million-event index's every file took 2 s for `file:/Users/me`, the walk 30 ms.
 */
const MAX_FILE_NAMES = 8;
/** A word as the index's tokenizer keeps it. */
const WORD = /[\p{L}\p{N}_]+/gu;

/** The words of a stored path's file name, as the index holds them ("theme ts"). */
const nameWords = (path: string): string =>
  (
    path
      .slice(path.lastIndexOf("/") + 1)
      .toLowerCase()
      .match(WORD) ?? []
  ).join(" ");

/**
 * An event's session number as the time indexes hold it (migration 17), tested there without reading the event. A
 * row written before that migration has none until `cairn index` converts it: its session id is read instead.
 */
const SESSION_KEY = "coalesce(e.sk, (SELECT k.sk FROM sessions k WHERE k.session_id = e.session_id))";

export interface Filters {
  where: string[];
  params: unknown[];
  joinSessions: boolean;
  /** The conditions on the joined sessions (`s`) alone, the last of `where` and `params`. */
  sessionWhere: string[];
  sessionParams: unknown[];
  /** The rowids a `session:` filter can reach, when few sessions pass it (see `sessionSpan`). */
  span?: { lo: number; hi: number };
}

/** `AND col BETWEEN lo AND hi` for a filter's span of rowids (integers the index gave), else nothing. */
const within = (f: Filters, col: string) => (f.span ? ` AND ${col} BETWEEN ${f.span.lo} AND ${f.span.hi}` : "");

export function filters(q: EventQuery): Filters {
  if (q.machines?.length || q.users?.length)
    throw new CairnError(
      "bad_query",
      "machine: and user: need a team index, which records where each session came from",
      "search a PostgreSQL index (--db postgres://…)",
    );
  const where: string[] = [];
  const params: unknown[] = [];
  const inList = (col: string, values: readonly string[] | undefined) => {
    if (!values || values.length === 0) return;
    where.push(`${col} IN (${values.map(() => "?").join(",")})`);
    params.push(...values);
  };
  inList("e.event_type", q.types);
  inList("e.provider", q.providers);
  inList("e.status", q.statuses);
  if (q.sessionPrefix) {
    where.push(`${SESSION_KEY} IN (SELECT k.sk FROM sessions k WHERE k.session_id >= ? AND k.session_id < ?)`);
    params.push(q.sessionPrefix, `${q.sessionPrefix}\uffff`);
  }
  if (q.since) {
    where.push("e.timestamp >= ?");
    params.push(q.since);
  }
  if (q.until) {
    where.push("e.timestamp <= ?");
    params.push(q.until);
  }
  if (q.file) {
    where.push("e.file_path LIKE ? ESCAPE '\\'");
    params.push(`%${likeEscape(q.file)}%`);
  }
  if (q.command) {
    where.push(
      `(e.command LIKE ? ESCAPE '\\' OR (e.event_type = 'command' AND ${decoded("e.text")} LIKE ? ESCAPE '\\'))`,
    );
    params.push(`%${likeEscape(q.command)}%`, `%${likeEscape(q.command)}%`);
  }
  if (q.secrets)
    where.push("EXISTS (SELECT 1 FROM event_edges x WHERE x.src = e.event_id AND x.edge_type = 'exposes')");
  if (q.tool) {
    where.push("e.tool_name = ? COLLATE NOCASE");
    params.push(q.tool);
  }
  const sessionWhere: string[] = [];
  const sessionParams: unknown[] = [];
  const projects = projectFilter(q);
  if (projects) {
    sessionWhere.push(projects.where);
    sessionParams.push(...projects.params);
  }
  if (q.includeSubagents === false) sessionWhere.push("s.kind NOT IN ('subagent', 'exec')");
  return {
    where: [...where, ...sessionWhere],
    params: [...params, ...sessionParams],
    joinSessions: sessionWhere.length > 0,
    sessionWhere,
    sessionParams,
  };
}

/**
 * The filters with the session conditions as a set of session numbers instead of a join: the time indexes hold
 * each event's session number, so a walk tests it there without reading the event. No event is newer than its session's last
 * update, so with `newest` (the latest update of the sessions that pass) the walk starts there.
 */
function withSessionSet(f: Filters, newest: string | null): Filters {
  if (!f.joinSessions) return f;
  const own = f.where.length - f.sessionWhere.length;
  const where = [
    ...f.where.slice(0, own),
    `${SESSION_KEY} IN (SELECT s.sk FROM sessions s WHERE ${f.sessionWhere.join(" AND ")})`,
  ];
  const params = [...f.params];
  if (newest !== null) {
    where.push("e.timestamp <= ?");
    params.push(newest);
  }
  return { where, params, joinSessions: false, sessionWhere: [], sessionParams: [] };
}

/** The kind, provider, status and tool filters as a match on the facet tokens, or null without any. */
function facetsOf(q: EventQuery): string | null {
  const groups: string[][] = [];
  if (q.types?.length) groups.push(q.types.map((t) => facetToken("k", t)));
  if (q.providers?.length) groups.push(q.providers.map((p) => facetToken("p", p)));
  if (q.statuses?.length) groups.push(q.statuses.map((s) => facetToken("s", s)));
  if (q.tool) groups.push([facetToken("t", q.tool)]);
  if (q.secrets) groups.push([facetToken("k", "secret")]);
  if (groups.length === 0) return null;
  const all = groups.map((g) => (g.length === 1 ? `"${g[0]}"` : `(${g.map((t) => `"${t}"`).join(" OR ")})`));
  return `{facets}: (${all.join(" AND ")})`;
}

type ProjectFilter = { where: string; params: string[] };
/** How many events the sessions that pass the session filters hold, and their latest update (null if unknown). */
type SessionShape = { events: number; newest: string | null };

/**
 * Whether every filter is a column of the time indexes (schema.ts, version 8) or a condition on the session, so a
 * newest-first walk never reads an event it does not return.
 */
function indexed(q: EventQuery): boolean {
  return !q.file && !q.command && !q.secrets;
}

/** Timestamp descending (events without one last), then rowid descending: the order of filter-only results. */
function newestFirst(a: { timestamp: string | null; rowid: number }, b: { timestamp: string | null; rowid: number }) {
  if (a.timestamp !== b.timestamp) {
    if (a.timestamp === null) return 1;
    if (b.timestamp === null) return -1;
    return a.timestamp < b.timestamp ? 1 : -1;
  }
  return b.rowid - a.rowid;
}

/** The join a query needs for its session filters (`project:`, subagents left out), or nothing. */
function sessionJoin(f: Filters): string {
  return f.joinSessions ? "JOIN sessions s ON s.session_id = e.session_id" : "";
}

/** The `project:` condition on the joined sessions (`s`), or null without one. */
function projectFilter(q: EventQuery): ProjectFilter | null {
  if (!q.projects || q.projects.length === 0) return null;
  return {
    where: `(${q.projects.map(() => "(s.project = ? COLLATE NOCASE OR s.cwd LIKE ? ESCAPE '\\')").join(" OR ")})`,
    params: q.projects.flatMap((p) => [p, `%${likeEscape(p)}%`]),
  };
}

/** A last word shorter than this is left out of the phrase rather than matched as a prefix (`t*` reads every t-word). */
const MIN_PREFIX = 3;

/**
 * The words of a `cmd:` value as an FTS phrase that every match of the value holds, or null when there is
 * none (the filter then walks the newest events). The value is a substring: unless it ends on a separator, its
 * last word may be the start of a longer one (`cmd:npm run b` finds `npm run build`), so it matches as a prefix,
 * or is left out when too short for a prefix to narrow anything. Its first word is taken whole: the index cannot
 * match a word's end.
 */
function phraseOf(value: string): string | null {
  const words = value.toLowerCase().match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  if (!/[\p{L}\p{N}_]$/u.test(value)) return `"${words.join(" ")}"`;
  if (words.at(-1)!.length >= MIN_PREFIX) return `"${words.join(" ")}"*`;
  return words.length > 1 ? `"${words.slice(0, -1).join(" ")}"` : null;
}

type Row = Parameters<typeof toEvent>[0] & { score: number | null };

export function createSearch(db: Database.Database) {
  const scopes = createSessionScopes(db);
  const cache = new Map<string, Database.Statement>();
  const indexExists = once(() => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").pluck());
  const prepare = (query: string) => {
    // A first index builds the newest-first indexes only at its end (deferred.ts): until then a hint
    // naming one is left out, and the query reads the table.
    const hint = /INDEXED BY (\w+)/.exec(query);
    const sql = hint && indexExists().get(hint[1]) === undefined ? query.replace(/INDEXED BY \w+/g, "") : query;
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      if (cache.size > 200) cache.clear();
      cache.set(sql, st);
    }
    return st;
  };
  const toHits = (rows: Row[]): EventHit[] =>
    rows.map((r) => {
      const { score, ...row } = r;
      return { event: toEvent(row) as SessionEvent, score };
    });

  /** Filters that the index can apply itself, as facet terms added to the match. */
  function withFacets(q: EventQuery, match: string): string {
    const facets = facetsOf(q);
    return facets === null ? match : `(${match}) AND ${facets}`;
  }

  /**
   * How many of the newest `window` matches there are, counting no further than `cap + 1`. FTS5 reads a match
   * newest first cheaply with a LIMIT, but a `rowid >= ?` bound costs as much as reading every match (measured:
   * 7.7 ms for the newest 4,000 of "the" against 0.3 ms), so a window is always its newest rows by LIMIT.
   */
  function countInWindow(match: string, f: Filters, window: number, cap: number): number {
    return prepare(
      `SELECT count(*) FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ?${within(f, "rowid")} ORDER BY rowid DESC LIMIT ?)`,
    )
      .pluck()
      .get(match, Math.min(window, cap + 1)) as number;
  }

  /** How many events match, counting no further than `cap + 1`. */
  function countUpTo(match: string, f: Filters, cap: number): number {
    return prepare(
      `SELECT count(*) FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ?${within(f, "rowid")} LIMIT ?)`,
    )
      .pluck()
      .get(match, cap + 1) as number;
  }

  /** The newest page of a match's events that pass the filters: sorted by time on rowids, then read whole. */
  function newestOfMatches(match: string, q: EventQuery, f: Filters, cond: string): EventHit[] {
    const sql = `SELECT ${COLS}, NULL AS score FROM session_events e WHERE e.rowid IN (
        SELECT e.rowid FROM events_fts c JOIN session_events e ON e.rowid = c.rowid ${sessionJoin(f)}
        WHERE events_fts MATCH ?${within(f, "c.rowid")} ${cond} ORDER BY e.timestamp DESC, e.rowid DESC LIMIT ?)
      ORDER BY e.timestamp DESC, e.rowid DESC`;
    return toHits(prepare(sql).all(match, ...f.params, q.limit) as Row[]);
  }

  /**
   * BM25 over the newest `window` matches (rowids grow as transcripts are indexed). Scoring costs about 2 µs a
   * match, so a common word over a million events would take 50-100 ms; ranking only the newest keeps a query
   * bounded and favours recent work. Equal scores keep the older event first, as FTS5's own order did.
   */
  function ranked(q: EventQuery, text: string, f: Filters): EventHit[] {
    const join = sessionJoin(f);
    const cond = f.where.length ? `WHERE ${f.where.join(" AND ")}` : "";
    // bm25() with the column weights rather than the table's `rank`: the same scores, but FTS5 sorts `rank`
    // before it applies a window, which cost three times as much. The candidates are scanned first and each
    // event read by its rowid (CROSS JOIN keeps that order): left to itself, the planner walked a filter's index
    // (every Bash call for `tool:Bash g`) and looked each entry up among the candidates, 60-120 ms at 1 M events.
    const query = `WITH win AS (SELECT rowid, ${BM25} AS rank FROM events_fts
          WHERE events_fts MATCH ?${within(f, "rowid")} ORDER BY rowid DESC LIMIT ?),
        hits AS (SELECT rowid, rank FROM win ORDER BY rank, rowid LIMIT ?)
      SELECT ${COLS}, hits.rank AS score FROM hits CROSS JOIN session_events e ON e.rowid = hits.rowid ${join} ${cond}
      ORDER BY hits.rank, e.event_id LIMIT ?`;
    const match = withFacets(q, text);
    // The facets already narrowed kind, provider, status and tool; the remaining filters may still drop candidates.
    const narrowedOnly =
      f.where.length === 0 || (!q.sessionPrefix && !q.since && !q.until && !q.file && !q.command && !f.joinSessions);
    let k = narrowedOnly ? q.limit : Math.max(200, q.limit * 20);
    let window = RANK_WINDOW;
    for (;;) {
      const rows = prepare(query).all(match, window, k, ...f.params, q.limit) as Row[];
      // Enough results, or the index had no more candidates to give.
      if (rows.length >= q.limit || k >= MAX_CANDIDATES) return toHits(rows);
      if (countInWindow(match, f, window, k) > k) k *= 8;
      else if (countInWindow(match, f, window + 1, window) > window) {
        // Filters dropped the window's matches and there are older ones: look further back.
        window *= 8;
      } else return toHits(rows);
    }
  }

  /**
   * A `file:` value as an FTS phrase every event it finds holds: any of the names of the files whose path holds the
   * value, where the events' kind is sure to show them (a file action shows its path from the project's folder,
   * often the name alone; a call, the path it was given). The value's own words were the phrase before, and an
   * absolute path, whose folders a file action's text leaves out, found nothing. `false`: no file's path holds
   * the value; null: no narrowing (other kinds, or more names than narrow anything).
   */
  function filePhrase(q: EventQuery & { file: string }): string | null | false {
    if (!q.types?.length || !q.types.every((t) => NAMED_FILES.has(t))) return null;
    const keys = prepare("SELECT key FROM entities WHERE kind = 'file' AND key LIKE ? ESCAPE '\\' LIMIT ?")
      .pluck()
      .all(`%${likeEscape(q.file)}%`, MAX_FILE_NAMES + 1) as string[];
    if (keys.length === 0) return false;
    if (keys.length > MAX_FILE_NAMES) return null;
    const names = new Set(keys.map(nameWords));
    names.delete("");
    return names.size === 0 ? null : `(${[...names].map((n) => `"${n}"`).join(" OR ")})`;
  }

  function newest(q: EventQuery, f: Filters): EventHit[] {
    const join = sessionJoin(f);
    const named = q.command === undefined && q.file !== undefined ? filePhrase({ ...q, file: q.file }) : null;
    if (named === false) return [];
    const words = q.command !== undefined ? phraseOf(q.command) : named;
    // With the kind known (a bare cmd: or file:), the index narrows to that kind before anything is joined.
    const phrase =
      words === null
        ? null
        : q.types?.length || q.tool || q.providers?.length || q.statuses?.length
          ? withFacets(q, words)
          : words;
    const cond = f.where.length ? `AND ${f.where.join(" AND ")}` : "";
    // With one kind, its (event_type, timestamp) index already lists events newest first (rowid breaking ties),
    // so a scan stops at the limit instead of sorting every match.
    const oneKind = q.types?.length === 1;
    if (phrase !== null) {
      const count = countUpTo(phrase, f, MAX_PHRASE_CANDIDATES);
      if (count <= FEW_CANDIDATES || (count <= MAX_PHRASE_CANDIDATES && !oneKind))
        return newestOfMatches(phrase, q, f, cond);
      if (count <= MAX_PHRASE_CANDIDATES) {
        const sql = `WITH cand(rowid) AS (SELECT rowid FROM events_fts WHERE events_fts MATCH ?${within(f, "rowid")})
          SELECT ${COLS}, NULL AS score FROM session_events e INDEXED BY events_type_time ${join}
          WHERE e.rowid IN cand ${cond} ORDER BY e.timestamp DESC, e.rowid DESC LIMIT ?`;
        return toHits(prepare(sql).all(phrase, ...f.params, q.limit) as Row[]);
      }
    }
    let shape: SessionShape | undefined;
    const sessions = () => (shape ??= sessionsOf(f));
    if (phrase === null && !q.sessionPrefix) {
      const few = fewMatches(q, f, cond, indexed(q) ? FEW_INDEXED_MATCHES : FEW_FACET_MATCHES, sessions);
      if (few) return few;
    }
    // Newest first from an index in that order, so the scan stops at the limit instead of sorting every match: the
    // tool's, the kind's or every event's (schema versions 8-9). A session prefix narrows through its own index.
    const index = q.sessionPrefix
      ? ""
      : q.tool
        ? "INDEXED BY events_tool_time"
        : oneKind
          ? "INDEXED BY events_type_time"
          : "INDEXED BY events_time";
    const walk = index && indexed(q) ? withSessionSet(f, f.joinSessions ? sessions().newest : null) : f;
    const sql = `SELECT ${COLS}, NULL AS score FROM session_events e ${index} ${sessionJoin(walk)}
      ${walk.where.length ? `WHERE ${walk.where.join(" AND ")}` : ""}
      ORDER BY e.timestamp DESC, e.rowid DESC LIMIT ?`;
    return toHits(prepare(sql).all(...walk.params, q.limit) as Row[]);
  }

  /**
   * Filters without words that few events pass, answered by reading just those: the facet tokens count a kind,
   * provider, status or tool (none at all for a tool name still being typed), and the sessions table counts a
   * project's events. Null when many may pass, for the newest-first scan, which then stops early.
   */
  function fewMatches(
    q: EventQuery,
    f: Filters,
    cond: string,
    few: number,
    sessions: () => SessionShape,
  ): EventHit[] | null {
    const only = facetsOf(q);
    if (only !== null) {
      if (countUpTo(only, f, few) <= few) return newestOfMatches(only, q, f, cond);
    }
    const projects = projectFilter(q);
    if (!projects) return null;
    // Many events: a newest-first walk meets a page of theirs soon (it reads about `limit / share` entries).
    if (indexed(q) && sessions().events * SESSION_SHARE >= eventCount()) return null;
    return newestOfSessions(q, f, cond, projects);
  }

  function sessionsOf(f: Filters): SessionShape {
    const row = prepare(
      `SELECT sum(event_count) AS events, max(updated_at) AS newest, count(*) - count(updated_at) AS undated
       FROM sessions s WHERE ${f.sessionWhere.join(" AND ")}`,
    ).get(...f.sessionParams) as { events: number | null; newest: string | null; undated: number };
    return { events: row.events ?? 0, newest: row.undated > 0 ? null : row.newest };
  }

  /** About how many events the index holds (rowids only grow), without counting them. */
  function eventCount(): number {
    return (prepare("SELECT max(rowid) FROM session_events").pluck().get() as number | null) ?? 0;
  }

  /**
   * A project's events newest first, walked session by session from the most recently updated: once the page is
   * full, a session updated no later than its oldest hit cannot add to it (no event is newer than its session's
   * update), so the walk stops there. Events of different sessions at the very same time may break their tie
   * differently from the global order.
   */
  function newestOfSessions(q: EventQuery, f: Filters, cond: string, projects: ProjectFilter): EventHit[] {
    const sessions = prepare(
      `SELECT s.session_id, s.updated_at FROM sessions s WHERE ${projects.where} ORDER BY s.updated_at DESC`,
    ).all(...projects.params) as Array<{ session_id: string; updated_at: string | null }>;
    const scope = scopes.scope();
    const ofSession = prepare(`SELECT ${COLS}, e.rowid, NULL AS score FROM session_events e ${scope.indexed}
      ${sessionJoin(f)} WHERE ${scope.of("e")} ${cond}
      ORDER BY e.timestamp DESC, e.rowid DESC LIMIT ?`);
    let page: Array<Row & { rowid: number }> = [];
    for (const s of sessions) {
      const oldest = page.length >= q.limit ? page[q.limit - 1]!.timestamp : undefined;
      if (oldest != null && (s.updated_at === null || s.updated_at <= oldest)) break;
      const rows = ofSession.all(...f.params, q.limit, { sid: s.session_id }) as typeof page;
      page = [...page, ...rows].sort(newestFirst).slice(0, q.limit);
    }
    return toHits(page);
  }

  /**
   * One slice of getting a new handle ready to rank: BM25 reads the size of every candidate it scores from the
   * FTS size table, one lookup per row, and the first lookups on each of its pages cost a new handle most of a
   * ranked query (at 1.1 M events, "error: TS" took 65 ms of CPU before the table's 4,200 pages had been read
   * once and 30 ms after). A slice counts the next rows of that table (about 5 ms); false once all are read. A
   * handle asked to get ready maps the file at once.
   */
  /**
   * The span of rowids that holds every event of the sessions a `session:` prefix names, when they are few: a
   * word then reads its matches in that span only, not the newest ones of the whole index until enough pass (at
   * 1 M events, `session:<id> error` read 89,000 matches in 280 ms). Only once every event carries its session's
   * number (session-rows.ts), which finds them; a prefix of no session gets an empty span.
   */
  function sessionSpan(q: EventQuery): { lo: number; hi: number } | undefined {
    if (!q.sessionPrefix || !scopes.allKeyed()) return undefined;
    const sessions = prepare("SELECT sk, event_count FROM sessions WHERE session_id >= ? AND session_id < ? LIMIT ?")
      .raw()
      .all(q.sessionPrefix, `${q.sessionPrefix}\uffff`, SPAN_SESSIONS + 1) as Array<[number, number]>;
    if (sessions.length > SPAN_SESSIONS || sessions.reduce((n, [, events]) => n + events, 0) > SPAN_EVENTS)
      return undefined;
    if (sessions.length === 0) return { lo: 1, hi: 0 };
    const [lo, hi] = prepare(
      `SELECT min(rowid), max(rowid) FROM session_events WHERE sk IN (${sessions.map(() => "?").join(",")})`,
    )
      .raw()
      .get(...sessions.map(([sk]) => sk)) as [number | null, number | null];
    return lo === null || hi === null ? { lo: 1, hi: 0 } : { lo, hi };
  }

  let warmedTo = 0;
  function warmSearch(): boolean {
    // Asked to get ready, the handle will search often.
    mapWhenLongLived(db, true);
    const last = (prepare("SELECT max(id) FROM events_fts_docsize").pluck().get() as number | null) ?? 0;
    if (warmedTo > last) return false;
    prepare("SELECT count(*) FROM events_fts_docsize WHERE id >= ? AND id < ?")
      .pluck()
      .get(warmedTo, warmedTo + WARM_SLICE);
    warmedTo += WARM_SLICE;
    return warmedTo <= last;
  }

  return {
    warmSearch,
    searchEvents(q: EventQuery): EventHit[] {
      mapWhenLongLived(db, false);
      const f = filters(q);
      const span = sessionSpan(q);
      if (span) {
        f.span = span;
        f.where.push(`e.rowid BETWEEN ${span.lo} AND ${span.hi}`);
      }
      const text = q.match === null ? null : ftsMatch(q.match);
      return text !== null ? ranked(q, text, f) : newest(q, f);
    },
  };
}
