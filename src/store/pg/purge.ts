/**
 * Secrets taken out of the team index, as `sqlite/purge.ts` does locally: the events' text, command, path and meta
 * rewritten redacted (with the events derived from them and their sessions' titles) and their `tsvector` rebuilt,
 * so no token of a value stays searchable. Read in one call, written in one call.
 */
import { redactText } from "../../secrets/redact.ts";
import { redactedEvent } from "../shared/redact-event.ts";
import type { PgConnection, PgOp } from "./bridge.ts";
import { tsvectorOf } from "./fts.ts";

interface Row {
  event_id: string;
  parent_event_id: string | null;
  session_id: string;
  event_type: string;
  provider: string;
  tool_name: string | null;
  status: string | null;
  text: string;
  command: string | null;
  file_path: string | null;
  meta: string;
  title: string | null;
}

export function createPgPurge(db: PgConnection) {
  return {
    redactEvents(eventIds: readonly string[]): number {
      if (eventIds.length === 0) return 0;
      const asked = new Set(eventIds);
      const rows = db.query<Row>(
        `SELECT e.event_id, e.parent_event_id, e.session_id, e.event_type, e.provider, e.tool_name, e.status, e.text,
           e.command, e.file_path, e.meta, s.title
         FROM session_events e LEFT JOIN sessions s ON s.session_id = e.session_id
         WHERE e.event_id = ANY($1::text[]) OR e.parent_event_id = ANY($1::text[])`,
        [[...asked]],
      );
      const ops: PgOp[] = [];
      const titles = new Map<string, string>();
      for (const r of rows) {
        const holdsSecret = asked.has(r.event_id);
        if (holdsSecret && r.title) titles.set(r.session_id, r.title);
        const red = redactedEvent(r, holdsSecret);
        if (red === null) continue;
        ops.push({
          sql: "UPDATE session_events SET text = $1, command = $2, file_path = $3, meta = $4, fts = $5::tsvector WHERE event_id = $6",
          params: [
            red.text,
            red.command,
            red.file_path,
            red.meta,
            tsvectorOf([red.fts.text, red.fts.idents, red.fts.facets, red.fts.stems]),
            r.event_id,
          ],
        });
      }
      const changed = ops.length;
      for (const [session, title] of titles) {
        const red = redactText(title);
        if (red !== title)
          ops.push({ sql: "UPDATE sessions SET title = $1 WHERE session_id = $2", params: [red, session] });
      }
      db.many(ops);
      return changed;
    },
  };
}
