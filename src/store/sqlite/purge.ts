/**
 * Secrets taken out of the local index: an event's stored text, command, path and meta (typed tool input holds
 * what the agent sent) rewritten redacted, with the events derived from it and its session's title, and its
 * full-text row replaced so no token of the value stays searchable. The `exposes` edges (kind and fingerprint,
 * never the value) stay, so the finding is still listed.
 */
import type Database from "better-sqlite3";
import { redactText } from "../../secrets/redact.ts";
import { packMeta, unpackedJson } from "../shared/packed-meta.ts";
import { redactedEvent } from "../shared/redact-event.ts";
import { decodeStored, encodeStored } from "../shared/text-codec.ts";
import { once } from "./lazy.ts";
import { createRunRewriter, isRunRef, metaOf } from "./meta-runs.ts";

interface Row {
  rowid: number;
  event_id: string;
  session_id: string;
  event_type: string;
  provider: string;
  tool_name: string | null;
  status: string | null;
  /** Text and meta as stored: maybe compressed (shared/text-codec.ts). */
  text: string | Uint8Array;
  command: string | null;
  file_path: string | null;
  meta: string | Uint8Array;
  /** A reference when the meta is kept in a run (meta-runs.ts). */
  mr: unknown;
}

export function createPurge(db: Database.Database) {
  const COLS = `rowid, event_id, session_id, event_type, provider, tool_name, status, text, command, file_path,
    ${metaOf("session_events")} AS meta, mr`;
  const rewriteRun = createRunRewriter(db);
  const byId = once(() => db.prepare(`SELECT ${COLS} FROM session_events WHERE event_id = ?`));
  const children = once(() => db.prepare(`SELECT ${COLS} FROM session_events WHERE parent_event_id = ?`));
  const update = once(() =>
    db.prepare("UPDATE session_events SET text = ?, command = ?, file_path = ?, meta = ?, mr = ? WHERE rowid = ?"),
  );
  const replaceFts = once(() =>
    db.prepare("INSERT OR REPLACE INTO events_fts(rowid, text, idents, facets, stems) VALUES (?, ?, ?, ?, ?)"),
  );
  const title = once(() => db.prepare("SELECT title FROM sessions WHERE session_id = ?").pluck());
  const setTitle = once(() => db.prepare("UPDATE sessions SET title = ? WHERE session_id = ?"));

  function redactRow(stored: Row, holdsSecret: boolean): boolean {
    // Decoded, redacted, and stored again as a new row would be: a tool call's meta redacted whole and packed
    // again against the redacted text (shared/packed-meta.ts), then both compressed where that pays.
    const text = decodeStored(stored.text);
    const r = { ...stored, text, meta: decodeStored(stored.meta) };
    const red = redactedEvent({ ...r, meta: unpackedJson(r.meta, text) }, holdsSecret);
    if (red === null) return false;
    const meta = r.event_type === "tool_call" ? (packMeta(red.text, JSON.parse(red.meta)) ?? red.meta) : red.meta;
    // A meta kept in a run is rewritten there, so the run holds no copy of the secret.
    const kept = isRunRef(stored.mr) ? rewriteRun(stored.mr, meta) : meta;
    const inRun = isRunRef(kept);
    update().run(
      encodeStored(red.text),
      red.command,
      red.file_path,
      inRun ? "" : encodeStored(kept),
      inRun ? kept : null,
      r.rowid,
    );
    replaceFts().run(r.rowid, red.fts.text, red.fts.idents, red.fts.facets, red.fts.stems);
    return true;
  }

  return {
    /** Redacts these events, the events derived from them and their sessions' titles; returns rows changed. */
    redactEvents(eventIds: readonly string[]): number {
      let changed = 0;
      const sessions = new Set<string>();
      for (const id of eventIds) {
        const row = byId().get(id) as Row | undefined;
        if (!row) continue;
        sessions.add(row.session_id);
        if (redactRow(row, true)) changed++;
        for (const child of children().all(id) as Row[]) if (redactRow(child, false)) changed++;
      }
      for (const s of sessions) {
        const t = title().get(s) as string | null | undefined;
        if (t) {
          const red = redactText(t);
          if (red !== t) setTitle().run(red, s);
        }
      }
      return changed;
    },
  };
}
