/**
 * A trigram index for `cmd:` substrings, where the server has `pg_trgm` (a contrib extension, trusted:
 * the database's owner may create it). A substring is not a word, so the full-text index cannot find it, and a
 * newest-first walk of a kind's index tests every event until a page passes: at 1.1 M events `cmd:"npm run check"`
 * walked 42,000 commands (0.5-2.7 s) because its matches were all older. A trigram index lists a substring's
 * candidates directly, so a rare one costs what its matches cost. Without the extension search walks as before.
 */
import type { PgConnection } from "./bridge.ts";

/**
 * A command event's command and text as one value an index can hold, joined by a newline, so a substring without
 * one matches the value exactly when it matches either part (what `cmd:` asks of a command event).
 */
const COMMAND_TEXT = (e: string) => `(coalesce(${e}command, '') || E'\\n' || ${e}text)`;

/**
 * The `cmd:` condition on `e` for an ILIKE pattern parameter (`%…%`) when only command events are asked for: the
 * form the trigram index holds. Null when the substring holds a newline (the parts must then be tested apart).
 */
export function commandEventCondition(substring: string, pattern: string): string | null {
  return substring.includes("\n") ? null : `${COMMAND_TEXT("e.")} ILIKE ${pattern}`;
}

/** Whether a trigram index can narrow to a substring: it needs a run of three letters or digits. */
export function trigramUsable(substring: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(substring) && !substring.includes("\n");
}

/**
 * Over the kind a bare `cmd:` searches (`search/search.ts`). `file:` has none: its walk reads the paths from the
 * kind's newest-first index without the table (migration 5), and a trigram index over file actions' paths was no
 * faster at 1.1 M events (`file:theme.ts`, 3,300 matches: 80-100 ms either way).
 */
const INDEX = `CREATE INDEX IF NOT EXISTS events_command_trgm ON session_events
  USING gin (${COMMAND_TEXT("")} gin_trgm_ops) WHERE event_type = 'command'`;

/** Whether this index has the trigram index (readable by a read-only role). */
export function hasPgTrgm(db: PgConnection): boolean {
  const [r] = db.query<{ ok: boolean }>("SELECT to_regclass('events_command_trgm') IS NOT NULL AS ok");
  return r?.ok === true;
}

/**
 * Creates the extension (when the server has it and the writer may) and the index once, under the writers' lock.
 * Over an existing index it takes a while to build (8 s at 1.1 M events, 85,000 commands: 11 MB); writers wait.
 */
export function enablePgTrgm(db: PgConnection, writeLock: number): boolean {
  if (hasPgTrgm(db)) return true;
  const [r] = db.query<{ ok: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') AS ok",
  );
  if (!r?.ok) return false;
  try {
    db.many([
      { sql: "BEGIN" },
      { sql: `SELECT pg_advisory_xact_lock(${writeLock})` },
      { sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm" },
      { sql: INDEX },
      { sql: "COMMIT" },
    ]);
    return true;
  } catch {
    // No privilege to create the extension: `cmd:` walks the commands' newest-first index as before.
    db.query("ROLLBACK");
    return false;
  }
}
