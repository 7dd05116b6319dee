/**
 * Secrets taken out of the local index: an event's stored text, command, path and meta (typed tool input holds
 * what the agent sent) rewritten redacted, with the events derived from it and its session's title, and its
 * full-text row replaced so no token of the value stays searchable. The `exposes` edges (kind and fingerprint,
 * never the value) stay, so the finding is still listed.
 */
import type Database from "better-sqlite3";
import { redactDeep, redactText } from "../secrets/redact.ts";
import { ftsColumns } from "./fts-text.ts";
import { SECRET_FACET } from "./prepare-batch.ts";

interface Row {
  rowid: number;
  event_id: string;
  session_id: string;
  event_type: string;
  provider: string;
  tool_name: string | null;
  status: string | null;
  text: string;
  command: string | null;
  file_path: string | null;
  meta: string;
}

export function createPurge(db: Database.Database) {
  const COLS = "rowid, event_id, session_id, event_type, provider, tool_name, status, text, command, file_path, meta";
  const byId = db.prepare(`SELECT ${COLS} FROM session_events WHERE event_id = ?`);
  const children = db.prepare(`SELECT ${COLS} FROM session_events WHERE parent_event_id = ?`);
  const update = db.prepare("UPDATE session_events SET text = ?, command = ?, file_path = ?, meta = ? WHERE rowid = ?");
  const replaceFts = db.prepare(
    "INSERT OR REPLACE INTO events_fts(rowid, text, idents, facets, stems) VALUES (?, ?, ?, ?, ?)",
  );
  const title = db.prepare("SELECT title FROM sessions WHERE session_id = ?").pluck();
  const setTitle = db.prepare("UPDATE sessions SET title = ? WHERE session_id = ?");

  function redactRow(r: Row, holdsSecret: boolean): boolean {
    const text = redactText(r.text);
    const command = r.command === null ? null : redactText(r.command);
    const path = r.file_path === null ? null : redactText(r.file_path);
    const meta = JSON.stringify(redactDeep(JSON.parse(r.meta) as unknown));
    if (text === r.text && command === r.command && path === r.file_path && meta === r.meta) return false;
    update.run(text, command, path, meta, r.rowid);
    const fts = ftsColumns({ ...r, text, event_type: r.event_type as never, provider: r.provider as never });
    const facets = holdsSecret ? `${fts.facets} ${SECRET_FACET}` : fts.facets;
    replaceFts.run(r.rowid, fts.text, fts.idents, facets, fts.stems);
    return true;
  }

  return {
    /** Redacts these events, the events derived from them and their sessions' titles; returns rows changed. */
    redactEvents(eventIds: readonly string[]): number {
      let changed = 0;
      const sessions = new Set<string>();
      for (const id of eventIds) {
        const row = byId.get(id) as Row | undefined;
        if (!row) continue;
        sessions.add(row.session_id);
        if (redactRow(row, true)) changed++;
        for (const child of children.all(id) as Row[]) if (redactRow(child, false)) changed++;
      }
      for (const s of sessions) {
        const t = title.get(s) as string | null | undefined;
        if (t) {
          const red = redactText(t);
          if (red !== t) setTitle.run(red, s);
        }
      }
      return changed;
    },
  };
}
