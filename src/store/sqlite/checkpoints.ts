/** Explicit checkpoints: the ones a user records for a session whose agent cannot write its own. */
import type Database from "better-sqlite3";
import type { CheckpointRow } from "../types.ts";
import { once } from "./lazy.ts";

export function createCheckpoints(db: Database.Database) {
  const insert = once(() =>
    db.prepare(`INSERT INTO checkpoints (checkpoint_id, session_id, event_id, step, label, created_at)
    VALUES (@checkpoint_id, @session_id, @event_id, @step, @label, @created_at)
    ON CONFLICT(checkpoint_id) DO UPDATE SET event_id = excluded.event_id, step = excluded.step, label = excluded.label,
      created_at = excluded.created_at`),
  );
  // The rowid breaks ties between checkpoints recorded in the same millisecond, so the order is the order written.
  const list = once(() =>
    db.prepare(
      "SELECT checkpoint_id, session_id, event_id, step, label, created_at FROM checkpoints WHERE session_id = ? ORDER BY created_at, rowid",
    ),
  );
  return {
    putCheckpoint(row: CheckpointRow): void {
      insert().run(row);
    },
    listCheckpoints(sessionId: string): CheckpointRow[] {
      return list().all(sessionId) as CheckpointRow[];
    },
  };
}
