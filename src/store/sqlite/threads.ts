/** Reads for work threads: which sessions share which files, error signatures and branches. */
import type Database from "better-sqlite3";
import type { Entity } from "../../topology/types.ts";
import { decodeStored } from "../shared/text-codec.ts";
import type { CheckRunRow, SessionEnding, SessionEntityLink, ThreadReads, ThreadSessionRow } from "../thread-types.ts";
import { once } from "./lazy.ts";
import { metaOf } from "./meta-runs.ts";
import { createSessionScopes } from "./session-rows.ts";

/** Bound parameters per `IN (…)` list, well under SQLite's variable limit. */
const CHUNK = 500;
/** Above this many sessions, endings read all checks in one pass instead of one range per session. */
const BULK_SESSIONS = 50;

export function createThreadReads(db: Database.Database): ThreadReads {
  const sessions = once(() =>
    db.prepare(
      `SELECT session_id, provider, kind, project, cwd,
       coalesce(title, CASE WHEN json_valid(meta) THEN json_extract(meta, '$.summary') END) AS title,
       started_at, updated_at, parent_session_id,
       CASE WHEN json_valid(meta) THEN json_extract(meta, '$.repository_url') END AS repository
     FROM sessions ORDER BY session_id`,
    ),
  );
  // The edge table's key starts with `src`, so no index helps here: one scan, grouped, is the cheapest plan. Links
  // carry no first/last times: joining each edge to its event costs about ten times the scan at 1 M events.
  const links = once(() =>
    db
      .prepare(
        `SELECT session_id, dst, count(*) FROM event_edges
       WHERE edge_type IN ('touches', 'fails_with', 'on_branch')
       GROUP BY session_id, dst`,
      )
      .raw(),
  );
  const scopes = createSessionScopes(db);
  // `+event_type` keeps the planner on the session index: the type index would visit every check in the index.
  const checksOf = scopes.statement(
    (s) =>
      `SELECT session_id, coalesce(command, text) AS key, event_id, status, timestamp, ${metaOf("session_events")} AS meta, ordinal
     FROM session_events WHERE ${s.of("session_events")} AND +event_type = 'test_result' ORDER BY ordinal`,
  );
  // For many sessions at once, one pass over all checks (through the type index) beats a range per session.
  const allChecks = once(() =>
    db.prepare(
      `SELECT session_id, coalesce(command, text) AS key, event_id, status, timestamp, ${metaOf("session_events")} AS meta, ordinal
     FROM session_events WHERE event_type = 'test_result'`,
    ),
  );
  const lastResult = scopes.statement(
    (s) =>
      `SELECT event_id, status, timestamp FROM session_events
     WHERE ${s.of("session_events")} AND +event_type = 'tool_result' ORDER BY ordinal DESC LIMIT 1`,
  );
  const errorOf = once(() =>
    db.prepare(
      `SELECT ${metaOf("session_events")} AS meta FROM session_events WHERE parent_event_id = ? AND event_type = 'error' ORDER BY ordinal LIMIT 1`,
    ),
  );
  const exists = once(() => db.prepare("SELECT 1 FROM sessions WHERE session_id = ?").pluck());
  // What changes when a session's events are indexed: a session whose stamp is unchanged keeps its links.
  const stamps = once(() =>
    db
      .prepare(
        `SELECT session_id, event_count || ':' || coalesce(updated_at, '') || ':' || error_count || ':' || tool_count
         || ':' || test_count FROM sessions`,
      )
      .raw(),
  );
  // One session's links through its own events (the session index, then each event's edges by their key).
  const linksOf = scopes.statement(
    (s) =>
      `SELECT x.dst, count(*) FROM session_events e ${s.indexed}
         JOIN event_edges x ON x.src = e.event_id
       WHERE ${s.of("e")} AND x.session_id = e.session_id AND x.edge_type IN ('touches', 'fails_with', 'on_branch')
       GROUP BY x.dst ORDER BY x.dst`,
    (st) => st.raw(),
  );
  const keptLinks = new SessionLinks();
  // Key (a check's text when it has no command) and meta may be stored compressed (shared/text-codec.ts).
  type CheckRow = Omit<CheckRunRow, "failing_tests" | "key"> & {
    session_id: string;
    key: string | Uint8Array;
    meta: string | Uint8Array | null;
  };

  return {
    threadSessions: () => sessions().all() as ThreadSessionRow[],
    sessionEntityLinks(): SessionEntityLink[] {
      return keptLinks.read(
        new Map(stamps().all() as Array<[string, string]>),
        () => links().all() as Array<[string, string, number]>,
        (id) => linksOf().all({ sid: id }) as Array<[string, number]>,
      );
    },
    entitiesByIds(ids: readonly string[]): Entity[] {
      const unique = [...new Set(ids)].sort();
      const out: Entity[] = [];
      for (let i = 0; i < unique.length; i += CHUNK) {
        const part = unique.slice(i, i + CHUNK);
        const sql = `SELECT entity_id, kind, key, display FROM entities WHERE entity_id IN (${part.map(() => "?").join(",")}) ORDER BY entity_id`;
        out.push(...(db.prepare(sql).all(...part) as Entity[]));
      }
      return out;
    },
    sessionEndings(sessionIds: readonly string[]): Map<string, SessionEnding> {
      const out = new Map<string, SessionEnding>();
      for (const id of new Set(sessionIds)) {
        if (!exists().get(id)) continue;
        const result = lastResult().get({ sid: id }) as
          | { event_id: string; status: string | null; timestamp: string | null }
          | undefined;
        let signature: string | null = null;
        if (result?.status === "error") {
          const err = errorOf().get(result.event_id) as { meta: string | Uint8Array | null } | undefined;
          const sig = parseMeta(err?.meta)["signature"];
          signature = typeof sig === "string" ? sig : null;
        }
        out.set(id, { session_id: id, check_runs: [], last_result: result ? { ...result, signature } : null });
      }
      const rows =
        out.size > BULK_SESSIONS
          ? (allChecks().all() as CheckRow[])
          : [...out.keys()].flatMap((id) => checksOf().all({ sid: id }) as CheckRow[]);
      for (const r of rows) {
        const failing = parseMeta(r.meta)["failing_tests"];
        out.get(r.session_id)?.check_runs.push({
          key: decodeStored(r.key),
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

function parseMeta(stored: string | Uint8Array | null | undefined): Record<string, unknown> {
  const meta = decodeStored(stored);
  if (!meta) return {};
  try {
    const v = JSON.parse(meta) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Sessions changed since the last read past which one scan of every edge is cheaper than reading them one by one. */
const RESCAN_SESSIONS = 200;

/**
 * The links of every session, kept between reads: scanning every edge took 0.7 s of CPU at 1.1 M events, so a
 * later read scans again only the sessions whose stamp (events, last update, counts) changed, and drops the ones
 * gone. A session re-read with the very same stamp keeps links it may have lost: its events changed without any
 * count or time changing, which indexing never does.
 */
class SessionLinks {
  private bySession = new Map<string, { stamp: string; links: Array<[string, number]> }>();

  read(
    stamps: Map<string, string>,
    scanAll: () => Array<[string, string, number]>,
    ofSession: (id: string) => Array<[string, number]>,
  ): SessionEntityLink[] {
    const changed = [...stamps].filter(([id, stamp]) => this.bySession.get(id)?.stamp !== stamp);
    if (this.bySession.size === 0 || changed.length > RESCAN_SESSIONS) {
      const fresh = new Map<string, { stamp: string; links: Array<[string, number]> }>();
      for (const [id, stamp] of stamps) fresh.set(id, { stamp, links: [] });
      for (const [id, dst, edges] of scanAll()) fresh.get(id)?.links.push([dst, edges]);
      this.bySession = fresh;
    } else {
      for (const id of this.bySession.keys()) if (!stamps.has(id)) this.bySession.delete(id);
      for (const [id, stamp] of changed) this.bySession.set(id, { stamp, links: ofSession(id) });
    }
    // In the order one grouped scan gives: by session, then entity.
    const out: SessionEntityLink[] = [];
    for (const id of [...this.bySession.keys()].sort())
      for (const [entity_id, edges] of this.bySession.get(id)!.links) out.push({ session_id: id, entity_id, edges });
    return out;
  }
}
