/**
 * A lever on PostgreSQL's planner and executor for the searches that know more than they do: a statement run with
 * some settings changed for it alone (plan types turned off, more memory for a sort).
 */
import type { PgConnection } from "./bridge.ts";

/** Runs one statement with the named `enable_*` settings off, resetting them after, also when it fails. */
export function withPlans<T>(db: PgConnection, off: readonly string[], sql: string, params: unknown[]): T[] {
  return withSettings(db, Object.fromEntries(off.map((name) => [name, "off"])), sql, params);
}

/**
 * Runs one statement with some settings changed, in the same round trip, resetting them after (also when it
 * fails). Values are cairn's own constants, never user input.
 */
export function withSettings<T>(
  db: PgConnection,
  settings: Readonly<Record<string, string>>,
  sql: string,
  params: unknown[],
): T[] {
  const names = Object.keys(settings);
  try {
    const results = db.many([
      ...names.map((name) => ({ sql: `SET ${name} = '${settings[name]}'` })),
      { sql, params },
      ...names.map((name) => ({ sql: `RESET ${name}` })),
    ]);
    return results[names.length] as T[];
  } catch (error) {
    try {
      db.many(names.map((name) => ({ sql: `RESET ${name}` })));
    } catch {
      // an aborted transaction resets them when it rolls back
    }
    throw error;
  }
}
