/**
 * RUM, where the server has it: a GIN index holds which events contain a word but not where, so ranking the
 * matches of a common word with `ts_rank` reads (and decompresses) every match's `tsvector` from the table: seconds
 * at a million events. A RUM index (postgrespro's `rum` extension, Debian's `postgresql-NN-rum`) keeps each word's
 * positions and weights in the index, so it checks phrases and weights and hands matches over in rank order
 * (`fts <=> query`) without reading the table: a page of ranked hits costs a few index pages however many events
 * match. It replaces the GIN index (it answers `@@` as well). Where the extension is missing, or the writer may not
 * create it (it is not a trusted extension: a superuser runs `CREATE EXTENSION rum` once), the GIN index stays and
 * search ranks with `ts_rank`.
 */
import type { PgConnection } from "./bridge.ts";

/** Whether this index ranks through RUM (readable by a read-only role). */
export function hasPgRum(db: PgConnection): boolean {
  const [r] = db.query<{ ok: boolean }>(
    "SELECT to_regclass('events_rum') IS NOT NULL AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'rum') AS ok",
  );
  return r?.ok === true;
}

/** Memory for building an index over an existing table: a RUM build sorts every lexeme's positions. */
const BUILD_MEMORY = "SET LOCAL maintenance_work_mem = '256MB'";

/**
 * Creates the extension (when the server has it and the writer may) and the index, once, under the writers' lock so
 * two machines starting at once build it once. Building it over an existing index takes a while (about a minute per
 * million events); writers wait for it. Returns whether search ranks through RUM. Without RUM, the GIN index is
 * made again if a bulk load (`dropFullTextIndexes`) was stopped before it rebuilt it.
 */
export function enablePgRum(db: PgConnection, writeLock: number): boolean {
  if (hasPgRum(db)) return true;
  const [r] = db.query<{ ok: boolean; gin: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'rum') AS ok,
       to_regclass('events_fts') IS NOT NULL AS gin`,
  );
  if (r?.ok) {
    try {
      db.many([
        { sql: "BEGIN" },
        { sql: `SELECT pg_advisory_xact_lock(${writeLock})` },
        { sql: BUILD_MEMORY },
        { sql: "CREATE EXTENSION IF NOT EXISTS rum" },
        { sql: "CREATE INDEX IF NOT EXISTS events_rum ON session_events USING rum (fts rum_tsvector_ops)" },
        { sql: "DROP INDEX IF EXISTS events_fts" },
        { sql: "COMMIT" },
      ]);
      return true;
    } catch {
      // No privilege, or a package built for another server release: the GIN index stays.
      db.query("ROLLBACK");
    }
  }
  if (!r?.gin)
    db.many([
      { sql: "BEGIN" },
      { sql: `SELECT pg_advisory_xact_lock(${writeLock})` },
      { sql: BUILD_MEMORY },
      { sql: "CREATE INDEX IF NOT EXISTS events_fts ON session_events USING GIN (fts)" },
      { sql: "COMMIT" },
    ]);
  return false;
}

/**
 * Drops the full-text and trigram indexes before a bulk load, under the writers' lock: building them once over a
 * million events afterwards costs far less than keeping them up to date event by event (a RUM index is slow to
 * write). Searches still answer meanwhile, from the table. The next writer to open the index builds them again
 * (`enablePgRum`, `enablePgTrgm`), also after a load that was killed.
 */
export function dropFullTextIndexes(db: PgConnection, writeLock: number): void {
  db.many([
    { sql: "BEGIN" },
    { sql: `SELECT pg_advisory_xact_lock(${writeLock})` },
    { sql: "DROP INDEX IF EXISTS events_rum" },
    { sql: "DROP INDEX IF EXISTS events_fts" },
    { sql: "DROP INDEX IF EXISTS events_command_trgm" },
    { sql: "COMMIT" },
  ]);
}
