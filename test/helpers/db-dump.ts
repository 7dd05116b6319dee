import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { decodeStored } from "../../src/store/shared/text-codec.ts";
import { metaOf, RUN_SLOTS, registerMetaFunctions } from "../../src/store/sqlite/meta-runs.ts";

/**
 * Everything a query can see in an index, in a stable order, minus what depends on the clock or on the order rows
 * were written in (rowids, `indexed_at`): two indexes of the same transcripts must dump identically.
 */
export function dumpIndex(path: string, queries: string[] = ["error", "npm", "test", "file", "session"]): string {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  registerMetaFunctions(db);
  try {
    const out: Record<string, unknown> = {};
    // A session's number (sk) follows the order sessions were written in, like a rowid: only that every event
    // carries its session's is compared.
    out["sessions"] = (db.prepare("SELECT * FROM sessions ORDER BY session_id").all() as Array<{ sk?: unknown }>).map(
      ({ sk: _, ...s }) => s,
    );
    out["events of another session's number"] = db
      .prepare("SELECT count(*) FROM session_events e JOIN sessions s USING (session_id) WHERE e.sk IS NOT s.sk")
      .pluck()
      .get();
    // Each run of small metas counts the events pointing into it, and none is missing or left over.
    out["meta runs miscounted"] = db
      .prepare(
        `SELECT count(*) FROM (SELECT r.run FROM meta_runs r LEFT JOIN session_events e ON e.mr / ${RUN_SLOTS} = r.run
         GROUP BY r.run HAVING count(e.rowid) <> r.live)`,
      )
      .pluck()
      .get();
    out["events of a missing run"] = db
      .prepare(
        `SELECT count(*) FROM session_events e WHERE e.mr IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM meta_runs r WHERE r.run = e.mr / ${RUN_SLOTS})`,
      )
      .pluck()
      .get();
    out["usage"] = db.prepare("SELECT * FROM usage_calls ORDER BY provider, source_file, source_line, seq").all();
    out["events"] = db
      .prepare(
        `SELECT event_id, session_id, provider, ordinal, timestamp, role, event_type, text, tool_name, command, file_path, status, parent_event_id, parent_edge, source_file, source_line, turn, tokens, ${metaOf("session_events")} AS meta FROM session_events ORDER BY event_id`,
      )
      .all();
    out["edges"] = db.prepare("SELECT * FROM event_edges ORDER BY src, dst, edge_type").all();
    out["entities"] = db.prepare("SELECT * FROM entities ORDER BY entity_id").all();
    out["problems"] = db.prepare("SELECT * FROM problems ORDER BY source_file, source_line, reason").all();
    out["files"] = (
      db.prepare("SELECT path, provider, size, offset, line, state FROM source_files ORDER BY path").all() as Array<{
        state: string | Uint8Array | null;
      }>
    ).map((f) => ({ ...f, state: f.state === null ? null : decodeStored(f.state) }));
    out["search"] = queries.map((q) =>
      db
        .prepare(
          "SELECT e.event_id FROM events_fts f JOIN session_events e ON e.rowid = f.rowid WHERE events_fts MATCH ? ORDER BY bm25(events_fts), e.event_id",
        )
        .all(q),
    );
    return JSON.stringify(out);
  } finally {
    db.close();
  }
}

export function integrityCheck(path: string): string {
  const db = new Database(path);
  sqliteVec.load(db);
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** Compares two dumps and names the first table (and row) that differs, instead of printing both. */
export function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  const x = JSON.parse(a) as Record<string, unknown[]>;
  const y = JSON.parse(b) as Record<string, unknown[]>;
  for (const table of Object.keys(x)) {
    const ra = x[table] ?? [];
    const rb = y[table] ?? [];
    if (ra.length !== rb.length) return `${table}: ${ra.length} rows vs ${rb.length}`;
    for (let i = 0; i < ra.length; i++) {
      const sa = JSON.stringify(ra[i]);
      const sb = JSON.stringify(rb[i]);
      if (sa !== sb) return `${table}[${i}]: ${sa.slice(0, 300)} vs ${sb.slice(0, 300)}`;
    }
  }
  return "dumps differ";
}

/** Runs `fn` on the index at `path` opened directly (outside the store), closing it after. */
export function withDb<T>(path: string, fn: (d: Database.Database) => T): T {
  const d = new Database(path);
  try {
    return fn(d);
  } finally {
    d.close();
  }
}
