/**
 * A lever on PostgreSQL's planner for the searches that know more than it does: a statement run with some
 * plan types turned off for it alone.
 */
import type { PgConnection } from "./pg-bridge.ts";

/** Runs one statement with the named `enable_*` settings off, resetting them after, also when it fails. */
export function withPlans<T>(db: PgConnection, off: readonly string[], sql: string, params: unknown[]): T[] {
  try {
    const results = db.many([
      ...off.map((name) => ({ sql: `SET ${name} = off` })),
      { sql, params },
      ...off.map((name) => ({ sql: `RESET ${name}` })),
    ]);
    return results[off.length] as T[];
  } catch (error) {
    try {
      db.many(off.map((name) => ({ sql: `RESET ${name}` })));
    } catch {
      // an aborted transaction resets them when it rolls back
    }
    throw error;
  }
}
