/** Reads of the PostgreSQL index: events, sessions, edges, entities, problems, checkpoints, settings. */
import {
  type Edge,
  type EdgeType,
  type Entity,
  PARENT_EDGE_DIRECTION,
  type Problem,
  type SessionEvent,
  type UsageCall,
  type UsageRow,
} from "../../topology/types.ts";
import { SECRET_EDGE } from "../shared/prepare-batch.ts";
import { toSecretSpans } from "../shared/secret-spans.ts";
import { USAGE_COLUMNS, usageRowOf } from "../shared/usage-rows.ts";
import type { CheckpointRow, SecretSpans, SessionFilter, SessionRow, StoreCounts, UsageCallsOf } from "../types.ts";
import type { PgConnection } from "./bridge.ts";

type Raw<T> = Omit<T, "meta"> & { meta: string | null };

export const PG_EVENT_COLUMNS =
  'event_id, session_id, provider, ordinal, "timestamp", role, event_type, text, tool_name, command, file_path, status, parent_event_id, source_file, source_line, turn, tokens, meta';
export const PG_E_COLUMNS = PG_EVENT_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");

export function pgEvent(row: Raw<SessionEvent> & Record<string, unknown>): SessionEvent {
  const out: Record<string, unknown> = {};
  for (const c of PG_EVENT_COLUMNS.split(", ")) {
    const k = c.replace(/"/g, "");
    out[k] = row[k];
  }
  out["meta"] = row.meta ? JSON.parse(row.meta) : {};
  return out as unknown as SessionEvent;
}

/** Every session column (machine and user too), and whether this machine's file it came from is gone. */
export const PG_SESSION_SELECT = `SELECT s.*, EXISTS (SELECT 1 FROM source_files f WHERE f.machine = s.machine
  AND f.path = s.source_file AND f.gone_at IS NOT NULL) AS source_gone FROM sessions s`;

export function pgSession(row: Record<string, unknown>): SessionRow {
  return { ...(row as unknown as SessionRow), meta: row["meta"] ? JSON.parse(String(row["meta"])) : {} };
}

function toEdge(row: Raw<Edge>): Edge {
  const { meta, ...rest } = row;
  return meta ? { ...rest, meta: JSON.parse(meta) as Edge["meta"] } : rest;
}

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createPgReader(db: PgConnection) {
  type Links = {
    event_id: string;
    session_id: string;
    ordinal: number;
    parent_event_id: string | null;
    parent_edge: EdgeType | null;
  };

  /** The implicit edges, rebuilt from `ordinal`, `parent_event_id` and `parent_edge` in one round trip. */
  function implicitEdges(id: string, direction: "from" | "to"): Edge[] {
    const [links, kids, other] = db.many([
      {
        sql: "SELECT event_id, session_id, ordinal, parent_event_id, parent_edge FROM session_events WHERE event_id = $1",
        params: [id],
      },
      {
        sql: "SELECT event_id, parent_edge FROM session_events WHERE parent_event_id = $1 ORDER BY session_id, ordinal",
        params: [id],
      },
      {
        sql: `SELECT n.event_id FROM session_events e JOIN session_events n ON n.session_id = e.session_id
          AND n.ordinal ${direction === "from" ? ">" : "<"} e.ordinal AND coalesce(n.parent_edge, '') <> 'derived_from'
          WHERE e.event_id = $1 ORDER BY n.ordinal ${direction === "from" ? "" : "DESC"} LIMIT 1`,
        params: [id],
      },
    ]) as [Links[], Array<{ event_id: string; parent_edge: EdgeType | null }>, Array<{ event_id: string }>];
    const ev = links[0];
    if (!ev) return [];
    const out: Edge[] = [];
    const sid = ev.session_id;
    const parentEdge = ev.parent_edge ?? (ev.parent_event_id ? "parent" : null);
    if (ev.parent_event_id && parentEdge) {
      const up = PARENT_EDGE_DIRECTION[parentEdge] === "child_to_parent";
      if (direction === "from" && up)
        out.push({ src: id, dst: ev.parent_event_id, edge_type: parentEdge, session_id: sid });
      if (direction === "to" && !up)
        out.push({ src: ev.parent_event_id, dst: id, edge_type: parentEdge, session_id: sid });
    }
    for (const c of kids) {
      const type = c.parent_edge ?? "parent";
      const up = PARENT_EDGE_DIRECTION[type] === "child_to_parent";
      if (direction === "to" && up) out.push({ src: c.event_id, dst: id, edge_type: type, session_id: sid });
      if (direction === "from" && !up) out.push({ src: id, dst: c.event_id, edge_type: type, session_id: sid });
    }
    const next = other[0];
    if (ev.parent_edge !== "derived_from" && next)
      out.push(
        direction === "from"
          ? { src: id, dst: next.event_id, edge_type: "next", session_id: sid }
          : { src: next.event_id, dst: id, edge_type: "next", session_id: sid },
      );
    return out;
  }

  const events = (sql: string, params: unknown[]) =>
    db.query<Raw<SessionEvent> & Record<string, unknown>>(sql, params).map(pgEvent);

  return {
    getEvent: (eventId: string) =>
      events(`SELECT ${PG_EVENT_COLUMNS} FROM session_events WHERE event_id = $1`, [eventId])[0],
    getEventHead: (eventId: string, chars: number) =>
      events(
        `SELECT ${PG_EVENT_COLUMNS.replace("text", "substr(text, 1, $2) AS text")} FROM session_events WHERE event_id = $1`,
        [eventId, chars],
      )[0],
    findEvents: (idPrefix: string, limit: number) =>
      events(
        `SELECT ${PG_EVENT_COLUMNS} FROM session_events WHERE event_id >= $1 AND event_id < $2 ORDER BY event_id COLLATE "C" LIMIT $3`,
        [idPrefix, `${idPrefix}\uffff`, limit],
      ),
    sessionEvents: (sessionId: string, range: { from?: number; to?: number } = {}) =>
      events(
        `SELECT ${PG_EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND ordinal >= $2 AND ordinal <= $3 ORDER BY ordinal`,
        [sessionId, range.from ?? 0, Math.min(range.to ?? 2_147_483_647, 2_147_483_647)],
      ),
    getSession(sessionId: string): SessionRow | undefined {
      const [row] = db.query(`${PG_SESSION_SELECT} WHERE s.session_id = $1`, [sessionId]);
      return row ? pgSession(row) : undefined;
    },
    listSessions(filter: SessionFilter): SessionRow[] {
      const where: string[] = [];
      const params: unknown[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      if (filter.provider?.length) where.push(`s.provider = ANY(${p(filter.provider)}::text[])`);
      if (filter.kinds?.length) where.push(`s.kind = ANY(${p(filter.kinds)}::text[])`);
      if (filter.project?.length)
        where.push(
          `(${filter.project.map((x) => `(lower(s.project) = lower(${p(x)}) OR s.cwd ILIKE ${p(`%${likeEscape(x)}%`)})`).join(" OR ")})`,
        );
      if (filter.since) where.push(`s.updated_at >= ${p(filter.since)}`);
      if (filter.until) where.push(`s.started_at <= ${p(filter.until)}`);
      if (filter.idPrefix) where.push(`starts_with(s.session_id, ${p(filter.idPrefix)})`);
      const sql = `${PG_SESSION_SELECT} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY s.updated_at DESC NULLS LAST, s.session_id COLLATE "C" LIMIT ${p(filter.limit ?? 1_000_000)}`;
      return db.query(sql, params).map(pgSession);
    },
    edgesFrom: (id: string): Edge[] => [
      ...implicitEdges(id, "from"),
      ...db
        .query<Raw<Edge>>(
          'SELECT src, dst, edge_type, session_id, meta FROM event_edges WHERE src = $1 ORDER BY edge_type COLLATE "C", dst COLLATE "C"',
          [id],
        )
        .map(toEdge),
    ],
    edgesTo: (id: string): Edge[] => [
      ...implicitEdges(id, "to"),
      ...db
        .query<Raw<Edge>>(
          'SELECT src, dst, edge_type, session_id, meta FROM event_edges WHERE dst = $1 ORDER BY edge_type COLLATE "C", src COLLATE "C"',
          [id],
        )
        .map(toEdge),
    ],
    getEntity: (entityId: string) =>
      db.query<Entity>("SELECT entity_id, kind, key, display FROM entities WHERE entity_id = $1", [entityId])[0],
    secretSpans: (): SecretSpans[] =>
      db
        .query<Omit<SecretSpans, "spans"> & { meta: string | null }>(
          `SELECT x.src AS event_id, x.session_id, x.dst AS secret, x.meta FROM entities n
           JOIN event_edges x ON x.dst = n.entity_id AND x.edge_type = '${SECRET_EDGE}' WHERE n.kind = 'secret'`,
        )
        .map(toSecretSpans),
    problems: (limit = 1_000_000) =>
      db.query<Problem>(
        'SELECT source_file, source_line, reason, excerpt FROM problems ORDER BY source_file COLLATE "C", source_line LIMIT $1',
        [limit],
      ),
    // The team index keeps no generations: its reports read the calls.
    usageGenerations: () => null,
    usageRows: (sessionId: string): UsageRow[] =>
      db
        .query<Record<string, unknown>>(
          `SELECT ${USAGE_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM usage_calls WHERE session_id = $1
           ORDER BY source_file COLLATE "C", source_line, seq`,
          [sessionId],
        )
        .map(usageRowOf),
    usageCalls: (of: UsageCallsOf = {}): UsageCall[] => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (of.providers?.length) where.push(`provider = ANY($${params.push([...of.providers])})`);
      if (of.since !== undefined) where.push(`"timestamp" >= $${params.push(of.since)}`);
      return db
        .query<Record<string, unknown>>(
          `SELECT ${USAGE_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM usage_calls
           ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY source_file COLLATE "C", source_line, seq`,
          params,
        )
        .map(usageRowOf);
    },
    counts: (): StoreCounts =>
      db.query<StoreCounts>(`SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM session_events) AS events,
        (SELECT count(*) FROM source_files) AS files, (SELECT count(*) FROM problems) AS problems`)[0]!,
    sessionCount: () => db.query<{ n: number }>("SELECT count(*) AS n FROM sessions")[0]!.n,
    listCheckpoints: (sessionId: string) =>
      db.query<CheckpointRow>(
        "SELECT checkpoint_id, session_id, event_id, step, label, created_at FROM checkpoints WHERE session_id = $1 ORDER BY created_at, seq",
        [sessionId],
      ),
    getSetting: (key: string) =>
      db.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])[0]?.value ?? null,
  };
}
