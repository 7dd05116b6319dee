/** Reads for work threads on PostgreSQL: the same answers as `sqlite/threads.ts`, each in one round trip. */
import type { Entity } from "../../topology/types.ts";
import type { CheckRunRow, SessionEnding, SessionEntityLink, ThreadReads, ThreadSessionRow } from "../thread-types.ts";
import type { PgConnection } from "./bridge.ts";

function parseMeta(meta: string | null | undefined): Record<string, unknown> {
  if (!meta) return {};
  try {
    const v = JSON.parse(meta) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function createPgThreadReads(db: PgConnection): ThreadReads {
  return {
    threadSessions: () =>
      db
        .query<Omit<ThreadSessionRow, "repository"> & { meta: string }>(
          `SELECT session_id, provider, kind, project, cwd, title, meta, started_at, updated_at, parent_session_id
           FROM sessions ORDER BY session_id`,
        )
        .map(({ meta, ...r }) => {
          const parsed = parseMeta(meta);
          const summary = parsed["summary"];
          const repository = parsed["repository_url"];
          return {
            ...r,
            title: r.title ?? (typeof summary === "string" ? summary : null),
            repository: typeof repository === "string" ? repository : null,
          };
        }),
    sessionEntityLinks: (): SessionEntityLink[] =>
      db.query<SessionEntityLink>(
        `SELECT session_id, dst AS entity_id, count(*)::int AS edges FROM event_edges
         WHERE edge_type IN ('touches', 'fails_with', 'on_branch') GROUP BY session_id, dst ORDER BY session_id, dst`,
      ),
    entitiesByIds: (ids: readonly string[]): Entity[] =>
      ids.length === 0
        ? []
        : db.query<Entity>(
            "SELECT entity_id, kind, key, display FROM entities WHERE entity_id = ANY($1::text[]) ORDER BY entity_id",
            [[...new Set(ids)]],
          ),
    sessionEndings(sessionIds: readonly string[]): Map<string, SessionEnding> {
      const out = new Map<string, SessionEnding>();
      const ids = [...new Set(sessionIds)];
      if (ids.length === 0) return out;
      const [sessions, last, checks] = db.many([
        { sql: "SELECT session_id FROM sessions WHERE session_id = ANY($1::text[])", params: [ids] },
        {
          sql: `SELECT DISTINCT ON (r.session_id) r.session_id, r.event_id, r.status, r."timestamp",
              (SELECT x.meta FROM session_events x WHERE x.parent_event_id = r.event_id AND x.event_type = 'error'
               ORDER BY x.ordinal LIMIT 1) AS error_meta
            FROM session_events r WHERE r.session_id = ANY($1::text[]) AND r.event_type = 'tool_result'
            ORDER BY r.session_id, r.ordinal DESC`,
          params: [ids],
        },
        {
          sql: `SELECT session_id, coalesce(command, text) AS key, event_id, status, "timestamp", meta, ordinal
            FROM session_events WHERE session_id = ANY($1::text[]) AND event_type = 'test_result' ORDER BY session_id, ordinal`,
          params: [ids],
        },
      ]) as [
        Array<{ session_id: string }>,
        Array<{
          session_id: string;
          event_id: string;
          status: string | null;
          timestamp: string | null;
          error_meta: string | null;
        }>,
        Array<Omit<CheckRunRow, "failing_tests"> & { session_id: string; meta: string | null }>,
      ];
      const lastOf = new Map(last.map((r) => [r.session_id, r]));
      // In the order asked (as the SQLite store answers).
      const present = new Set(sessions.map((s) => s.session_id));
      for (const id of ids) {
        if (!present.has(id)) continue;
        const r = lastOf.get(id);
        const sig = r?.status === "error" ? parseMeta(r.error_meta)["signature"] : null;
        out.set(id, {
          session_id: id,
          check_runs: [],
          last_result: r
            ? {
                event_id: r.event_id,
                status: r.status,
                timestamp: r.timestamp,
                signature: typeof sig === "string" ? sig : null,
              }
            : null,
        });
      }
      for (const r of checks) {
        const failing = parseMeta(r.meta)["failing_tests"];
        out.get(r.session_id)?.check_runs.push({
          key: r.key,
          ordinal: r.ordinal,
          event_id: r.event_id,
          status: r.status,
          timestamp: r.timestamp,
          failing_tests: Array.isArray(failing) ? failing.filter((t): t is string => typeof t === "string") : [],
        });
      }
      return out;
    },
  };
}
