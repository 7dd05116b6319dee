/**
 * Writes of the PostgreSQL index. A prepared batch goes in one round trip: one statement per table, each taking
 * the whole batch as one JSON array (`json_to_recordset`), so a batch costs the same few calls however many rows
 * it holds. File bookkeeping, problems and the sessions of a file are keyed by the writing machine as well.
 */
import { TOPOLOGY_VERSION } from "../../topology/version.ts";
import { EVENT_INSERT_COLUMNS, type PreparedBatch } from "../shared/prepare-batch.ts";
import { USAGE_COLUMNS, USAGE_PG_TYPES } from "../shared/usage-rows.ts";
import type { FileStamp, FileState } from "../types.ts";
import type { PgConnection, PgOp } from "./bridge.ts";
import { tsvectorOf } from "./fts.ts";

const quoted = (c: string) => `"${c}"`;

export interface Identity {
  machine: string;
  user: string | null;
}

const EVENT_TYPES: Record<string, string> = {
  ordinal: "integer",
  source_line: "integer",
  turn: "integer",
  tokens: "integer",
  fts: "tsvector",
};
const EVENT_COLS = [...EVENT_INSERT_COLUMNS, "fts"];
const recordset = (cols: readonly string[], types: Record<string, string> = {}) =>
  `json_to_recordset($1::json) AS x(${cols.map((c) => `${q(c)} ${types[c] ?? "text"}`).join(", ")})`;
const q = (c: string) => (c === "offset" || c === "timestamp" ? `"${c}"` : c);
const SESSION_COLS = [
  "session_id",
  "provider",
  "kind",
  "cwd",
  "project",
  "title",
  "started_at",
  "updated_at",
  "parent_session_id",
  "git_branch",
  "model",
  "source_file",
  "meta",
];

const INSERT_EVENTS = `INSERT INTO session_events (${EVENT_COLS.map(q).join(", ")})
  SELECT ${EVENT_COLS.map(q).join(", ")} FROM ${recordset(EVENT_COLS, EVENT_TYPES)}
  ON CONFLICT (event_id) DO UPDATE SET ${EVENT_COLS.slice(1)
    .map((c) =>
      c === "parent_edge"
        ? "parent_edge = coalesce(excluded.parent_edge, session_events.parent_edge)"
        : `${q(c)} = excluded.${q(c)}`,
    )
    .join(", ")}
  WHERE (${EVENT_INSERT_COLUMNS.slice(1)
    .filter((c) => c !== "parent_edge")
    .map((c) => `session_events.${q(c)}`)
    .join(", ")}) IS DISTINCT FROM (${EVENT_INSERT_COLUMNS.slice(1)
    .filter((c) => c !== "parent_edge")
    .map((c) => `excluded.${q(c)}`)
    .join(
      ", ",
    )}) OR (excluded.parent_edge IS NOT NULL AND excluded.parent_edge IS DISTINCT FROM session_events.parent_edge)
  RETURNING (xmax = 0) AS inserted`;

const UPSERT_SESSIONS = `INSERT INTO sessions (${SESSION_COLS.join(", ")}, machine, user_name)
  SELECT ${SESSION_COLS.join(", ")}, $2, $3 FROM ${recordset(SESSION_COLS)}
  ON CONFLICT (session_id) DO UPDATE SET ${[...SESSION_COLS.slice(1), "machine", "user_name"].map((c) => `${c} = excluded.${c}`).join(", ")}`;

const PUT_EDGES = `INSERT INTO event_edges (src, dst, edge_type, session_id, meta)
  SELECT * FROM json_to_recordset($1::json) AS x(src text, dst text, edge_type text, session_id text, meta text)
  ORDER BY src, dst, edge_type ON CONFLICT DO NOTHING`;
const PUT_ENTITIES = `INSERT INTO entities (entity_id, kind, key, display)
  SELECT * FROM json_to_recordset($1::json) AS x(entity_id text, kind text, key text, display text)
  ORDER BY entity_id ON CONFLICT (entity_id) DO UPDATE SET display = excluded.display
  WHERE entities.kind = 'error_signature' AND entities.display = entities.key`;
const PUT_PROBLEMS = `INSERT INTO problems (machine, source_file, source_line, reason, excerpt)
  SELECT $2, source_file, source_line, reason, excerpt
  FROM json_to_recordset($1::json) AS x(source_file text, source_line integer, reason text, excerpt text)
  ON CONFLICT DO NOTHING`;

const PUT_USAGE = `INSERT INTO usage_calls (machine, ${USAGE_COLUMNS.map(quoted).join(", ")})
  SELECT $2, ${USAGE_COLUMNS.map(quoted).join(", ")} FROM json_to_recordset($1::json) AS x(${USAGE_COLUMNS.map((c) => `${quoted(c)} ${USAGE_PG_TYPES[c]}`).join(", ")})
  ON CONFLICT (machine, source_file, source_line, seq) DO UPDATE SET ${USAGE_COLUMNS.slice(3)
    .map((c) => `${quoted(c)} = excluded.${quoted(c)}`)
    .join(", ")}`;

const FILE_COLS = 'path, provider, size, mtime_ms, inode, head_hash, tail_hash, "offset", line, state, indexed_at';
const PUT_FILE = `INSERT INTO source_files (machine, user_name, ${FILE_COLS}, topology_version)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, ${TOPOLOGY_VERSION})
  ON CONFLICT (machine, path) DO UPDATE SET user_name = excluded.user_name, provider = excluded.provider,
    size = excluded.size, mtime_ms = excluded.mtime_ms, inode = excluded.inode, head_hash = excluded.head_hash,
    tail_hash = excluded.tail_hash, "offset" = excluded."offset", line = excluded.line, state = excluded.state,
    indexed_at = excluded.indexed_at, gone_at = NULL, topology_version = excluded.topology_version`;

/** Recounts the per-session totals from the events committed. */
const REFRESH_COUNTS = `UPDATE sessions s SET event_count = c.events, prompt_count = c.prompts, tool_count = c.tools,
           error_count = c.errors, test_count = c.tests, resume_count = c.resumes
         FROM (SELECT i.id, count(e.event_id) AS events,
             count(*) FILTER (WHERE e.event_type = 'user_message' AND e.role = 'user') AS prompts,
             count(*) FILTER (WHERE e.event_type = 'tool_call') AS tools,
             count(*) FILTER (WHERE e.event_type = 'error') AS errors,
             count(*) FILTER (WHERE e.event_type = 'test_result') AS tests,
             count(*) FILTER (WHERE e.event_type = 'resume_point') AS resumes
           FROM unnest($1::text[]) AS i(id) LEFT JOIN session_events e ON e.session_id = i.id GROUP BY i.id) c
         WHERE s.session_id = c.id`;

function textOf(v: unknown): unknown {
  return v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.length).toString() : v;
}

export function createPgWriter(db: PgConnection, me: Identity) {
  const putFileOp = (s: FileState): PgOp => ({
    sql: PUT_FILE,
    params: [
      me.machine,
      me.user,
      s.path,
      s.provider,
      s.size,
      s.mtime_ms,
      s.inode,
      s.head_hash,
      s.tail_hash,
      s.offset,
      s.line,
      s.state ? JSON.stringify(s.state) : null,
      s.indexed_at,
    ],
  });

  /** Deletes what came from a file of this machine: its sessions' events from that file, edges, orphaned entities. */
  const deleteFileOps = (path: string): PgOp[] => [
    { sql: "CREATE TEMP TABLE IF NOT EXISTS gone_events (event_id text)" },
    { sql: "TRUNCATE gone_events" },
    {
      sql: `INSERT INTO gone_events SELECT e.event_id FROM sessions s JOIN session_events e
        ON e.session_id = s.session_id AND e.source_file = s.source_file WHERE s.machine = $1 AND s.source_file = $2
        UNION ALL SELECT 'session:' || session_id FROM sessions WHERE machine = $1 AND source_file = $2`,
      params: [me.machine, path],
    },
    {
      sql: `WITH dropped AS (DELETE FROM event_edges WHERE src IN (SELECT event_id FROM gone_events) RETURNING dst)
        DELETE FROM entities n WHERE n.entity_id IN (SELECT DISTINCT dst FROM dropped WHERE dst LIKE '%:%' AND dst NOT LIKE 'session:%')
          AND NOT EXISTS (SELECT 1 FROM event_edges x WHERE x.dst = n.entity_id AND x.src NOT IN (SELECT event_id FROM gone_events))`,
    },
    {
      sql: "DELETE FROM session_events WHERE event_id IN (SELECT event_id FROM gone_events)",
    },
    { sql: "SELECT count(*) AS n FROM gone_events WHERE event_id NOT LIKE 'session:%'" },
    { sql: "DELETE FROM problems WHERE machine = $1 AND source_file = $2", params: [me.machine, path] },
    { sql: "DELETE FROM usage_calls WHERE machine = $1 AND source_file = $2", params: [me.machine, path] },
    { sql: "DELETE FROM sessions WHERE machine = $1 AND source_file = $2", params: [me.machine, path] },
    { sql: "DELETE FROM source_files WHERE machine = $1 AND path = $2", params: [me.machine, path] },
  ];

  return {
    writePrepared(p: PreparedBatch): number {
      const textAt = EVENT_INSERT_COLUMNS.indexOf("text");
      const events = p.events.map(({ values, fts }) => {
        const row: Record<string, unknown> = {};
        EVENT_INSERT_COLUMNS.forEach((c, i) => {
          row[c] = i === textAt ? textOf(values[i]) : values[i];
        });
        row["fts"] = tsvectorOf(fts);
        return row;
      });
      const ops: PgOp[] = [];
      if (p.sessions.length)
        ops.push({ sql: UPSERT_SESSIONS, params: [JSON.stringify(p.sessions), me.machine, me.user] });
      if (p.edges.length)
        ops.push({
          sql: PUT_EDGES,
          params: [
            JSON.stringify(
              p.edges.map(([src, dst, edge_type, session_id, meta]) => ({ src, dst, edge_type, session_id, meta })),
            ),
          ],
        });
      const eventsAt = ops.length;
      if (events.length) ops.push({ sql: INSERT_EVENTS, params: [JSON.stringify(events)] });
      if (p.entities.length)
        ops.push({
          sql: PUT_ENTITIES,
          params: [
            JSON.stringify(p.entities.map(([entity_id, kind, key, display]) => ({ entity_id, kind, key, display }))),
          ],
        });
      if (p.problems.length)
        ops.push({
          sql: PUT_PROBLEMS,
          params: [
            JSON.stringify(
              p.problems.map(([source_file, source_line, reason, excerpt]) => ({
                source_file,
                source_line,
                reason,
                excerpt,
              })),
            ),
            me.machine,
          ],
        });
      if (p.usage.length)
        ops.push({
          sql: PUT_USAGE,
          params: [
            JSON.stringify(p.usage.map((u) => Object.fromEntries(USAGE_COLUMNS.map((c, i) => [c, u[i]])))),
            me.machine,
          ],
        });
      // The sessions' totals are recounted with every batch, in its transaction: a run killed between two commits
      // leaves totals that match the events kept (the indexer itself recounts only when a file ends).
      if (p.sessionIds.length) ops.push({ sql: REFRESH_COUNTS, params: [p.sessionIds] });
      const results = db.many(ops);
      if (!events.length) return 0;
      return (results[eventsAt] as Array<{ inserted: boolean }>).filter((r) => r.inserted).length;
    },
    getFileState(path: string): FileState | undefined {
      const [row] = db.query<Record<string, unknown>>(
        `SELECT ${FILE_COLS} FROM source_files WHERE machine = $1 AND path = $2`,
        [me.machine, path],
      );
      if (!row) return undefined;
      return { ...(row as unknown as FileState), state: row["state"] ? JSON.parse(String(row["state"])) : null };
    },
    fileStamps(): Map<string, FileStamp> {
      const out = new Map<string, FileStamp>();
      const rows = db.query<{
        path: string;
        size: number;
        mtime_ms: number;
        inode: number;
        gone: boolean;
        current: boolean;
      }>(
        `SELECT path, size, mtime_ms, inode, gone_at IS NOT NULL AS gone,
          coalesce(topology_version = ${TOPOLOGY_VERSION}, false) AS current FROM source_files WHERE machine = $1`,
        [me.machine],
      );
      for (const r of rows)
        out.set(r.path, { size: r.size, mtime_ms: r.mtime_ms, inode: r.inode, gone: r.gone, current: r.current });
      return out;
    },
    putFileState(state: FileState): void {
      db.many([putFileOp(state)]);
    },
    deleteFile(path: string): number {
      const results = db.many(deleteFileOps(path));
      return (results[5] as Array<{ n: number }>)[0]?.n ?? 0;
    },
    markGone(paths: readonly string[], at: string | null): void {
      if (paths.length === 0) return;
      db.query("UPDATE source_files SET gone_at = $1 WHERE machine = $2 AND path = ANY($3::text[])", [
        at,
        me.machine,
        paths,
      ]);
    },
    moveFile(from: string, file: FileState): void {
      db.many([
        {
          sql: `UPDATE session_events e SET source_file = $3 FROM sessions s
            WHERE s.machine = $1 AND s.source_file = $2 AND e.session_id = s.session_id AND e.source_file = $2`,
          params: [me.machine, from, file.path],
        },
        {
          sql: "UPDATE problems SET source_file = $3 WHERE machine = $1 AND source_file = $2",
          params: [me.machine, from, file.path],
        },
        {
          sql: "UPDATE usage_calls SET source_file = $3 WHERE machine = $1 AND source_file = $2",
          params: [me.machine, from, file.path],
        },
        {
          sql: "UPDATE sessions SET source_file = $3 WHERE machine = $1 AND source_file = $2",
          params: [me.machine, from, file.path],
        },
        { sql: "DELETE FROM source_files WHERE machine = $1 AND path = $2", params: [me.machine, from] },
        putFileOp(file),
      ]);
    },
    goneFiles(): Array<{ path: string; gone_at: string; sessions: number }> {
      return db.query(
        `SELECT path, gone_at, (SELECT count(*) FROM sessions s WHERE s.machine = f.machine AND s.source_file = f.path)::int AS sessions
         FROM source_files f WHERE machine = $1 AND gone_at IS NOT NULL ORDER BY gone_at, path`,
        [me.machine],
      );
    },
    refreshSessions(sessionIds: Iterable<string>): void {
      const ids = [...new Set(sessionIds)];
      if (ids.length > 0) db.query(REFRESH_COUNTS, [ids]);
    },
  };
}
