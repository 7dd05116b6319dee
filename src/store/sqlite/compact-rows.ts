/**
 * Converting an index's existing rows to the compact layout: texts and metas compressed (migration 14,
 * shared/text-codec.ts), the session's own path kept as '' (migration 15), each event given its session's
 * number (migration 17), small metas kept in runs (migration 18, meta-runs.ts), the bundles anchored in the span
 * given their digests (migration 19, bundle-digests.ts). The migration only records the last rowid written before
 * it; `cairn index` then converts the rows up to it in
 * batches by rowid, each batch its own transaction that also moves the high-water mark kept in `settings`, so a
 * run stopped at any point keeps what it converted and the next run goes on from there. Rows read the same
 * either way, so the index answers throughout, half converted or not.
 *
 * A converted row shrinks in place: most of what it frees is room inside the table's pages, which new rows (always
 * appended at the end of the rowid order) never reuse, and only freed overflow pages go on SQLite's free list (pi
 * corpus: 16 of the 46 MB). So a finished conversion ends with one VACUUM, which rewrites the file compactly (282 ->
 * 236 MB in 1.4 s there, docs/performance.md) but needs room for a second copy: it is left out when the disk has
 * less free space than twice the file, and the index is then correct, only no smaller.
 */
import { statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { encodeStored, MIN_COMPRESSED_BYTES } from "../shared/text-codec.ts";
import type { CompactResult } from "../types.ts";
import { createBundleDigests } from "./bundle-digests.ts";
import { once } from "./lazy.ts";
import { createRunWriter, MIN_RUN_CHARS, runnable } from "./meta-runs.ts";
import { COMPACT_ROWS } from "./schema.ts";

/** Rowids per transaction: a few thousand rows (a few MB of text) keep each commit short. */
const BATCH_ROWIDS = 4_000;

type Mark = { done: number; end: number };

export function createRowCompaction(db: Database.Database) {
  const getMark = once(() => db.prepare("SELECT value FROM settings WHERE key = ?").pluck());
  const mark = () => {
    const v = getMark().get(COMPACT_ROWS) as string | undefined;
    return v === undefined ? null : (JSON.parse(v) as Mark);
  };
  // Only values SQLite holds as text and long enough to be worth compressing cross into JavaScript.
  const candidates = `CASE WHEN typeof(COL) = 'text' AND octet_length(COL) >= ${MIN_COMPRESSED_BYTES} THEN COL END`;
  const select = once(() =>
    db
      .prepare(
        `SELECT rowid, ${candidates.replaceAll("COL", "text")} AS text, ${candidates.replaceAll("COL", "meta")} AS meta
         FROM session_events WHERE rowid > ? AND rowid <= ?`,
      )
      .raw(true),
  );
  const put = once(() =>
    db.prepare("UPDATE session_events SET text = coalesce(?, text), meta = coalesce(?, meta) WHERE rowid = ?"),
  );
  // Migration 15: a row read from its session's file keeps '' for the path (write.ts).
  const ownFile = once(() =>
    db.prepare(`UPDATE session_events SET source_file = '' WHERE rowid > ? AND rowid <= ? AND source_file <> ''
      AND source_file = (SELECT s.source_file FROM sessions s WHERE s.session_id = session_events.session_id)`),
  );
  // Migration 17: rows written before get their session's number.
  const number = once(() =>
    db.prepare(
      `UPDATE session_events SET sk = (SELECT s.sk FROM sessions s WHERE s.session_id = session_events.session_id)
       WHERE rowid > ? AND rowid <= ? AND sk IS NULL`,
    ),
  );
  // Migration 18: the small metas left (not compressed above) go into runs, per session.
  const smallMetas = once(() =>
    db
      .prepare(
        `SELECT rowid, session_id, meta FROM session_events WHERE rowid > ? AND rowid <= ?
         AND mr IS NULL AND typeof(meta) = 'text' AND length(meta) >= ${MIN_RUN_CHARS} ORDER BY session_id, rowid`,
      )
      .raw(true),
  );
  const setMeta = once(() => db.prepare("UPDATE session_events SET meta = '', mr = ? WHERE rowid = ?"));
  const runs = createRunWriter(db);
  const keep = once(() => db.prepare("UPDATE settings SET value = ? WHERE key = ?"));
  const drop = once(() => db.prepare("DELETE FROM settings WHERE key = ?"));
  const digestBundles = createBundleDigests(db);

  return {
    /** Rows still to convert, by rowid span (0 when none). */
    compactPending(): number {
      const m = mark();
      return m === null ? 0 : Math.max(0, m.end - m.done);
    },
    /** Converts the rows the migration left, a batch per transaction, until done or `maxBatches` have run. */
    compactRows(opts: { maxBatches?: number; batchRowids?: number } = {}): CompactResult {
      const out: CompactResult = { rows: 0, compressed: 0, interrupted: false };
      let m = mark();
      if (m === null) return out;
      for (let batches = 0; ; batches++) {
        if (m.done >= m.end) {
          drop().run(COMPACT_ROWS);
          out.vacuumed = vacuumIfRoom(db);
          return out;
        }
        if (opts.maxBatches !== undefined && batches >= opts.maxBatches) {
          out.interrupted = true;
          return out;
        }
        const to = Math.min(m.end, m.done + (opts.batchRowids ?? BATCH_ROWIDS));
        const from = m.done;
        db.transaction(() => {
          for (const [rowid, text, meta] of select().all(from, to) as Array<[number, string | null, string | null]>) {
            out.rows++;
            const t = text === null ? null : encodeStored(text);
            const x = meta === null ? null : encodeStored(meta);
            const newText = typeof t === "string" ? null : t;
            const newMeta = typeof x === "string" ? null : x;
            if (newText === null && newMeta === null) continue;
            put().run(newText, newMeta, rowid);
            out.compressed++;
          }
          for (const [rowid, session, meta] of smallMetas().all(from, to) as Array<[number, string, string]>)
            if (runnable(meta)) setMeta().run(runs.slot(session, meta), rowid);
          runs.flush();
          ownFile().run(from, to);
          number().run(from, to);
          digestBundles(from, to);
          keep().run(JSON.stringify({ done: to, end: m!.end }), COMPACT_ROWS);
        })();
        m = { done: to, end: m.end };
      }
    },
  };
}

/** VACUUM (see above) when outside a transaction and the disk has room for the copy it writes and its log. */
function vacuumIfRoom(db: Database.Database): boolean {
  if (db.inTransaction || db.memory) return false;
  try {
    const size = statSync(db.name).size;
    const fs = statfsSync(dirname(db.name));
    if (fs.bavail * fs.bsize < 2 * size) return false;
  } catch {
    return false;
  }
  db.exec("VACUUM");
  db.pragma("wal_checkpoint(TRUNCATE)");
  return true;
}
