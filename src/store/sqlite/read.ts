/** Reads of the index: events, sessions, edges, entities, problems. */
import type Database from "better-sqlite3";
import {
  type Edge,
  type EdgeType,
  type Entity,
  PARENT_EDGE_DIRECTION,
  type Problem,
  type Provider,
  type SessionEvent,
  type UsageCall,
  type UsageRow,
} from "../../topology/types.ts";
import { unpackMeta } from "../shared/packed-meta.ts";
import { EVENT_INSERT_COLUMNS, SECRET_EDGE } from "../shared/prepare-batch.ts";
import { toSecretSpans } from "../shared/secret-spans.ts";
import { decodeStored } from "../shared/text-codec.ts";
import { USAGE_COLUMNS, USAGE_GENERATION, usageCallOfValues, usageRowOf } from "../shared/usage-rows.ts";
import type { SecretSpans, SessionFilter, SessionRow, StoreCounts, UsageCallsOf } from "../types.ts";
import { headOf, packedMeta } from "./codec-sql.ts";
import { once } from "./lazy.ts";
import { metaOf } from "./meta-runs.ts";
import { createSessionScopes } from "./session-rows.ts";

type Raw<T> = Omit<T, "meta"> & { meta: string | null };

/** A row as SQLite gives it: text and meta may be stored compressed (shared/text-codec.ts). */
export type EventRow = Omit<Raw<SessionEvent>, "text" | "meta"> & {
  text: string | Uint8Array;
  meta: string | Uint8Array | null;
  rowid?: number;
  meta_text?: string | Uint8Array | null;
};

/**
 * An event from its row, its text and meta decoded. A tool call's meta may be stored packed, pointing into the
 * event's whole text (shared/packed-meta.ts): a row read with a shortened text carries the whole one as
 * `meta_text` for it.
 */
export function toEvent(row: EventRow): SessionEvent {
  const { rowid: _rowid, meta_text: metaText, ...rest } = row;
  const text = decodeStored(row.text);
  const meta = decodeStored(row.meta);
  const whole = metaText === undefined || metaText === null ? text : decodeStored(metaText);
  return { ...rest, text, meta: meta ? (unpackMeta(meta, whole) as SessionEvent["meta"]) : {} };
}

function toSession(row: Omit<Raw<SessionRow>, "source_gone"> & { source_gone: number; sk?: number }): SessionRow {
  // The session's number is the store's key (migration 17), not part of the session.
  const { sk: _, ...rest } = row;
  return {
    ...rest,
    source_gone: row.source_gone === 1,
    meta: row.meta ? (JSON.parse(row.meta) as SessionRow["meta"]) : {},
  };
}

/**
 * Every session column, and whether the file it was read from is gone. A file's row keeps its reader state before
 * `gone_at`, so reading that column from the row walks through the state; the index of the gone files (usually
 * empty) answers instead.
 */
const SESSION_SELECT = `SELECT *, EXISTS (SELECT 1 FROM source_files f INDEXED BY source_files_gone
  WHERE f.path = sessions.source_file AND f.gone_at IS NOT NULL) AS source_gone FROM sessions`;

function toEdge(row: Raw<Edge>): Edge {
  const { meta, ...rest } = row;
  return meta ? { ...rest, meta: JSON.parse(meta) as Edge["meta"] } : rest;
}

/** An event's columns as it reads (how it hangs off its parent is read by the edge queries). */
const EVENT_FIELDS = EVENT_INSERT_COLUMNS.filter((c) => c !== "parent_edge");

/**
 * The columns of an event as `toEvent` reads them, from table (or alias) `t`; `text` may be replaced by an
 * expression that reads less of it. An event read from its session's file keeps its path as '' (write.ts): it
 * reads as the session's, looked up per row, or once when the statement binds the one session (`sessionFile`,
 * an uncorrelated subquery that SQLite evaluates once: 0.7 µs a row saved on a session's whole timeline).
 */
export function eventColumns(t: string, opts: { text?: string; sessionFile?: string } = {}): string {
  const sessionFile = opts.sessionFile ?? `(SELECT f.source_file FROM sessions f WHERE f.session_id = ${t}.session_id)`;
  return EVENT_FIELDS.map((c) =>
    c === "source_file"
      ? `CASE WHEN ${t}.source_file = '' THEN ${sessionFile} ELSE ${t}.source_file END AS source_file`
      : c === "text" && opts.text !== undefined
        ? `${opts.text} AS text`
        : c === "meta"
          ? `${metaOf(t)} AS meta`
          : `${t}.${c}`,
  ).join(", ");
}

/**
 * A read-only handle maps the index file once it has been open this long: a server's, the terminal UI's. Mapped,
 * a page read again is a memory read instead of a read() call and a copy: at 1.1 M events the 3,774 candidates of
 * "project:pi-mono ed" took 22 ms to look up through read(), 6 ms mapped (warm). But each page's first touch is a
 * page fault, dearer than a read() (on the 2-core virtual machines of docs/performance.md, about 4x), and one
 * command reads most of its pages once: unmapped, a cold search at 1.1 M events took 40 % less CPU.
 */
const LONG_LIVED_MS = 2_000;
/** When each read-only handle opened, until it is mapped. */
const unmapped = new WeakMap<Database.Database, number>();

/** Maps a read-only handle's file (see `LONG_LIVED_MS`) once it has lived long enough, or at once with `now`. */
export function mapWhenLongLived(db: Database.Database, now: boolean): void {
  const opened = unmapped.get(db);
  if (opened === undefined || (!now && performance.now() - opened < LONG_LIVED_MS)) return;
  unmapped.delete(db);
  db.pragma("mmap_size = 2147418112");
  db.pragma("cache_size = -16384");
}

export function createReader(db: Database.Database) {
  if (db.readonly) unmapped.set(db, performance.now());
  const cols = eventColumns("e");
  const getEvent = once(() => db.prepare(`SELECT ${cols} FROM session_events e WHERE event_id = ?`));
  const getEventHead = once(() =>
    db.prepare(
      `SELECT ${eventColumns("e", { text: headOf("e.text", "@chars") })},
        CASE WHEN ${packedMeta("e.meta")} THEN e.text END AS meta_text FROM session_events e WHERE event_id = @id`,
    ),
  );
  const findEvents = once(() =>
    db.prepare(`SELECT ${cols} FROM session_events e WHERE event_id >= ? AND event_id < ? ORDER BY event_id LIMIT ?`),
  );
  const scopes = createSessionScopes(db);
  const sessionEvents = scopes.statement(
    (s) =>
      `SELECT ${eventColumns("e", { sessionFile: "(SELECT source_file FROM sessions WHERE session_id = @sid)" })}
       FROM session_events e WHERE ${s.of("e")} AND ordinal >= @from AND ordinal <= @to ORDER BY ordinal`,
  );
  const getSession = once(() => db.prepare(`${SESSION_SELECT} WHERE session_id = ?`));
  const edgesFrom = once(() =>
    db.prepare("SELECT src, dst, edge_type, session_id, meta FROM event_edges WHERE src = ? ORDER BY edge_type, dst"),
  );
  const edgesTo = once(() =>
    db.prepare("SELECT src, dst, edge_type, session_id, meta FROM event_edges WHERE dst = ? ORDER BY edge_type, src"),
  );
  const eventLinks = once(() =>
    db.prepare(
      "SELECT event_id, session_id, ordinal, parent_event_id, parent_edge FROM session_events WHERE event_id = ?",
    ),
  );
  const children = once(() =>
    db.prepare(
      "SELECT event_id, parent_edge FROM session_events WHERE parent_event_id = ? ORDER BY session_id, ordinal",
    ),
  );
  const nextPrimary = scopes.statement(
    (s) =>
      `SELECT event_id FROM session_events e WHERE ${s.of("e")} AND ordinal > ? AND coalesce(parent_edge, '') <> 'derived_from' ORDER BY ordinal LIMIT 1`,
  );
  const prevPrimary = scopes.statement(
    (s) =>
      `SELECT event_id FROM session_events e WHERE ${s.of("e")} AND ordinal < ? AND coalesce(parent_edge, '') <> 'derived_from' ORDER BY ordinal DESC LIMIT 1`,
  );
  type Links = {
    event_id: string;
    session_id: string;
    ordinal: number;
    parent_event_id: string | null;
    parent_edge: EdgeType | null;
  };

  /** The edges that the store keeps implicit, rebuilt from `ordinal`, `parent_event_id` and `parent_edge`. */
  function implicitEdges(id: string, direction: "from" | "to"): Edge[] {
    const ev = eventLinks().get(id) as Links | undefined;
    if (!ev) return [];
    const out: Edge[] = [];
    const sid = ev.session_id;
    const primary = ev.parent_edge !== "derived_from";
    const parentEdge = ev.parent_edge ?? (ev.parent_event_id ? "parent" : null);
    if (ev.parent_event_id && parentEdge) {
      const up = PARENT_EDGE_DIRECTION[parentEdge] === "child_to_parent";
      if (direction === "from" && up)
        out.push({ src: id, dst: ev.parent_event_id, edge_type: parentEdge, session_id: sid });
      if (direction === "to" && !up)
        out.push({ src: ev.parent_event_id, dst: id, edge_type: parentEdge, session_id: sid });
    }
    for (const c of children().all(id) as Array<{ event_id: string; parent_edge: EdgeType | null }>) {
      const type = c.parent_edge ?? "parent";
      const up = PARENT_EDGE_DIRECTION[type] === "child_to_parent";
      if (direction === "to" && up) out.push({ src: c.event_id, dst: id, edge_type: type, session_id: sid });
      if (direction === "from" && !up) out.push({ src: id, dst: c.event_id, edge_type: type, session_id: sid });
    }
    if (primary) {
      const other = (direction === "from" ? nextPrimary() : prevPrimary()).get(ev.ordinal, { sid }) as
        | { event_id: string }
        | undefined;
      if (other)
        out.push(
          direction === "from"
            ? { src: id, dst: other.event_id, edge_type: "next", session_id: sid }
            : { src: other.event_id, dst: id, edge_type: "next", session_id: sid },
        );
    }
    return out;
  }
  const getEntity = once(() => db.prepare("SELECT * FROM entities WHERE entity_id = ?"));
  // From the secret entities (their own index) to their edges (by destination): the cost follows the findings,
  // not the size of the index.
  const secretRows = once(() =>
    db.prepare(
      `SELECT x.src AS event_id, x.session_id, x.dst AS secret, x.meta FROM entities n INDEXED BY entities_kind
       JOIN event_edges x ON x.dst = n.entity_id AND x.edge_type = '${SECRET_EDGE}' WHERE n.kind = 'secret'`,
    ),
  );
  // A long-lived reader (a server, the terminal UI) asks for every answer: read again only when the index changed,
  // through another connection (data_version) or this one (total_changes).
  const changeMark = once(() => db.prepare("SELECT total_changes()").pluck());
  let secrets: { mark: string; rows: SecretSpans[] } | null = null;
  // A listing's SQL depends on which filters it has: each shape prepared once (ids printed short ask one per id).
  const listings = new Map<string, Database.Statement>();
  const listing = (sql: string) => {
    const known = listings.get(sql);
    if (known) return known;
    const stmt = db.prepare(sql);
    listings.set(sql, stmt);
    return stmt;
  };
  const problems = once(() => db.prepare("SELECT * FROM problems ORDER BY source_file, source_line LIMIT ?"));
  // In the table's own order (its key): the usage report keeps the first of equal copies. Where a row was read is
  // left out: a report reads tens of thousands, and the file's path was most of each one's bytes.
  const callColumns = USAGE_COLUMNS.slice(3);
  const usageSql = (where: string) =>
    `SELECT ${callColumns.join(", ")} FROM usage_calls ${where} ORDER BY provider, source_file, source_line, seq`;
  // Kept by triggers on usage_calls (schema.ts, migration 13).
  const usageGenerations = once(() =>
    db
      .prepare("SELECT key, value FROM settings WHERE key > ? AND key < ?")
      .raw(true)
      .bind(USAGE_GENERATION, `${USAGE_GENERATION}\uffff`),
  );
  const sessionUsage = once(() =>
    db.prepare(
      `SELECT ${USAGE_COLUMNS.join(", ")} FROM usage_calls WHERE session_id = ? ORDER BY provider, source_file, source_line, seq`,
    ),
  );
  // Counted on the narrowest index: SQLite would pick the one with fewest columns, that of the source paths, which
  // is four times the pages, and a read-only open counts sessions first (a cold start reads every page it counts).
  const sessionCount = once(() => db.prepare("SELECT count(*) FROM sessions INDEXED BY sessions_updated").pluck());
  const counts = once(() =>
    db.prepare(`SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM session_events) AS events,
    (SELECT count(*) FROM source_files) AS files, (SELECT count(*) FROM problems) AS problems`),
  );

  return {
    expectLongUse: () => mapWhenLongLived(db, true),
    getEvent(eventId: string): SessionEvent | undefined {
      const row = getEvent().get(eventId) as EventRow | undefined;
      return row ? toEvent(row) : undefined;
    },
    getEventHead(eventId: string, chars: number): SessionEvent | undefined {
      const row = getEventHead().get({ chars, id: eventId }) as EventRow | undefined;
      return row ? toEvent(row) : undefined;
    },
    findEvents(idPrefix: string, limit: number): SessionEvent[] {
      return (findEvents().all(idPrefix, `${idPrefix}\uffff`, limit) as EventRow[]).map(toEvent);
    },
    sessionEvents(sessionId: string, range: { from?: number; to?: number } = {}): SessionEvent[] {
      // A timeline, read in stretches as someone scrolls: what a long-lived handle does.
      mapWhenLongLived(db, false);
      const bounds = { sid: sessionId, from: range.from ?? 0, to: range.to ?? Number.MAX_SAFE_INTEGER };
      return (sessionEvents().all(bounds) as EventRow[]).map(toEvent);
    },
    getSession(sessionId: string): SessionRow | undefined {
      const row = getSession().get(sessionId) as Parameters<typeof toSession>[0] | undefined;
      return row ? toSession(row) : undefined;
    },
    listSessions(filter: SessionFilter): SessionRow[] {
      const where: string[] = [];
      const params: unknown[] = [];
      const inList = (col: string, values: readonly string[] | undefined) => {
        if (!values || values.length === 0) return;
        where.push(`${col} IN (${values.map(() => "?").join(",")})`);
        params.push(...values);
      };
      inList("provider", filter.provider);
      inList("kind", filter.kinds);
      if (filter.project && filter.project.length > 0) {
        where.push(
          `(${filter.project.map(() => "(project = ? COLLATE NOCASE OR cwd LIKE ? ESCAPE '\\')").join(" OR ")})`,
        );
        for (const p of filter.project) params.push(p, `%${likeEscape(p)}%`);
      }
      if (filter.since) {
        where.push("updated_at >= ?");
        params.push(filter.since);
      }
      if (filter.until) {
        where.push("started_at <= ?");
        params.push(filter.until);
      }
      if (filter.idPrefix) {
        where.push("session_id >= ? AND session_id < ?");
        params.push(filter.idPrefix, `${filter.idPrefix}\uffff`);
      }
      const sql = `${SESSION_SELECT} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY updated_at DESC, session_id LIMIT ?`;
      return (listing(sql).all(...params, filter.limit ?? 1_000_000) as Parameters<typeof toSession>[0][]).map(
        toSession,
      );
    },
    edgesFrom(id: string): Edge[] {
      return [...implicitEdges(id, "from"), ...(edgesFrom().all(id) as Array<Raw<Edge>>).map(toEdge)];
    },
    edgesTo(id: string): Edge[] {
      return [...implicitEdges(id, "to"), ...(edgesTo().all(id) as Array<Raw<Edge>>).map(toEdge)];
    },
    getEntity(entityId: string): Entity | undefined {
      return getEntity().get(entityId) as Entity | undefined;
    },
    secretSpans(): readonly SecretSpans[] {
      const mark = `${db.pragma("data_version", { simple: true })}:${changeMark().get()}`;
      if (secrets?.mark !== mark) {
        const rows = secretRows().all() as Array<Omit<SecretSpans, "spans"> & { meta: string | null }>;
        secrets = { mark, rows: rows.map(toSecretSpans) };
      }
      return secrets.rows;
    },
    problems(limit = 1_000_000): Problem[] {
      return problems().all(limit) as Problem[];
    },
    usageCalls(of: UsageCallsOf = {}): UsageCall[] {
      const where: string[] = [];
      const params: unknown[] = [];
      if (of.providers?.length) {
        where.push(`provider IN (${of.providers.map(() => "?").join(", ")})`);
        params.push(...of.providers);
      }
      if (of.since !== undefined) {
        where.push("timestamp >= ?");
        params.push(of.since);
      }
      const sql = usageSql(where.length ? `WHERE ${where.join(" AND ")}` : "");
      return (
        listing(sql)
          .raw(true)
          .all(...params) as unknown[][]
      ).map(usageCallOfValues);
    },
    usageRows(sessionId: string): UsageRow[] {
      return (sessionUsage().all(sessionId) as Array<Record<string, unknown>>).map(usageRowOf);
    },
    usageGenerations(): Map<Provider, number> {
      const rows = usageGenerations().all() as Array<[string, string]>;
      return new Map(rows.map(([key, value]) => [key.slice(USAGE_GENERATION.length) as Provider, Number(value)]));
    },
    counts(): StoreCounts {
      return counts().get() as StoreCounts;
    },
    sessionCount(): number {
      return sessionCount().get() as number;
    },
  };
}

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
