/** Event search: FTS5 MATCH ranked by BM25, or filters alone (newest first). */
import type Database from "better-sqlite3";
import type { SessionEvent } from "../topology/types.ts";
import { EVENT_COLUMNS, likeEscape, toEvent } from "./sqlite-read.ts";
import type { EventHit, EventQuery } from "./types.ts";

/** BM25 weights of the FTS columns: the words as written count more than the parts of identifiers. */
const BM25 = "bm25(events_fts, 1.0, 0.4)";

export function createSearch(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      if (cache.size > 200) cache.clear();
      cache.set(sql, st);
    }
    return st;
  };

  return {
    searchEvents(q: EventQuery): EventHit[] {
      const where: string[] = [];
      const params: unknown[] = [];
      const cols = EVENT_COLUMNS.split(", ")
        .map((c) => `e.${c}`)
        .join(", ");
      if (q.types && q.types.length > 0) {
        where.push(`e.event_type IN (${q.types.map(() => "?").join(",")})`);
        params.push(...q.types);
      }
      if (q.providers && q.providers.length > 0) {
        where.push(`e.provider IN (${q.providers.map(() => "?").join(",")})`);
        params.push(...q.providers);
      }
      if (q.statuses && q.statuses.length > 0) {
        where.push(`e.status IN (${q.statuses.map(() => "?").join(",")})`);
        params.push(...q.statuses);
      }
      if (q.sessionPrefix) {
        where.push("e.session_id >= ? AND e.session_id < ?");
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
        where.push("(e.command LIKE ? ESCAPE '\\' OR (e.event_type = 'command' AND e.text LIKE ? ESCAPE '\\'))");
        params.push(`%${likeEscape(q.command)}%`, `%${likeEscape(q.command)}%`);
      }
      if (q.tool) {
        where.push("e.tool_name = ? COLLATE NOCASE");
        params.push(q.tool);
      }
      const needSession = (q.projects && q.projects.length > 0) || q.includeSubagents === false;
      if (q.includeSubagents === false) where.push("s.kind NOT IN ('subagent', 'exec')");
      if (q.projects && q.projects.length > 0) {
        where.push(
          `(${q.projects.map(() => "(s.project = ? COLLATE NOCASE OR s.cwd LIKE ? ESCAPE '\\')").join(" OR ")})`,
        );
        for (const p of q.projects) params.push(p, `%${likeEscape(p)}%`);
      }
      const join = needSession ? "JOIN sessions s ON s.session_id = e.session_id" : "";
      let sql: string;
      if (q.match !== null) {
        sql = `SELECT ${cols}, ${BM25} AS score FROM events_fts f JOIN session_events e ON e.rowid = f.rowid ${join}
          WHERE events_fts MATCH ? ${where.length ? `AND ${where.join(" AND ")}` : ""}
          ORDER BY score, e.timestamp DESC, e.event_id LIMIT ?`;
        params.unshift(q.match);
      } else {
        sql = `SELECT ${cols}, NULL AS score FROM session_events e ${join}
          ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY e.timestamp DESC, e.event_id LIMIT ?`;
      }
      const rows = prepare(sql).all(...params, q.limit) as Array<
        Parameters<typeof toEvent>[0] & { score: number | null }
      >;
      return rows.map((r) => {
        const { score, ...row } = r;
        return { event: toEvent(row) as SessionEvent, score };
      });
    },
  };
}
