/**
 * The indexes of `session_events` that only reads use, built once after a first index instead of row by row.
 * Kept up to date while rows arrive, the newest-first indexes (migrations 8-9) and the parent index cost about a
 * third of the writer's time: each row lands at a random place in each of them, and every commit rewrites the
 * pages it touched. Built from the finished table, they cost a sort. So a handle whose first group starts on an
 * index without events drops them (their SQL kept in `settings` until they are back) and builds them again
 * before it first reads anything, or when it closes. A run stopped before either leaves them to the next
 * group any writer starts. Other handles read without them meanwhile: slower, the same answers
 * (search.ts leaves out an index hint whose index is missing).
 */
import type Database from "better-sqlite3";

export const DEFERRED_INDEXES = ["events_time", "events_type_time", "events_tool_time", "events_parent"] as const;
/** The settings key holding the dropped indexes' SQL. */
const PENDING = "deferred_indexes";

export function createDeferredIndexes(db: Database.Database) {
  /** This handle dropped them and has not built them since. */
  let dropped = false;
  let checked = false;
  const pending = () =>
    db.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(PENDING) as string | undefined;

  function build(): void {
    const sql = pending();
    if (sql !== undefined) {
      const run = () => {
        for (const s of JSON.parse(sql) as string[])
          db.exec(s.replace(/^CREATE INDEX /, "CREATE INDEX IF NOT EXISTS "));
        db.prepare("DELETE FROM settings WHERE key = ?").run(PENDING);
      };
      if (db.inTransaction) run();
      else db.transaction(run)();
    }
    dropped = false;
  }

  return {
    /** In a group's transaction, the handle's first: drop them on an index without events, or build any left. */
    atGroupStart(): void {
      if (checked) return;
      checked = true;
      if (pending() !== undefined) return build();
      if (db.prepare("SELECT 1 FROM session_events LIMIT 1").get() !== undefined) return;
      const names = DEFERRED_INDEXES.map((n) => `'${n}'`).join(", ");
      const rows = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN (${names}) ORDER BY name`)
        .all() as Array<{ name: string; sql: string }>;
      if (rows.length === 0) return;
      db.prepare("INSERT INTO settings(key, value) VALUES (?, ?)").run(PENDING, JSON.stringify(rows.map((r) => r.sql)));
      for (const r of rows) db.exec(`DROP INDEX ${r.name}`);
      dropped = true;
    },
    /** Builds them if this handle dropped them: before it reads, and when it closes. */
    ensure(): void {
      if (dropped) build();
    },
  };
}
