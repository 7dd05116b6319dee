/**
 * Evidence bundles and their vectors (sqlite-vec). Triggers on `session_events` queue the events that complete a
 * bundle and drop bundles and vectors with their events (migration 3); this file builds nothing itself: the
 * bundle text comes from `search/bundles.ts`, the vectors from an embedder.
 */
import type Database from "better-sqlite3";
import type { EventType, SessionEvent } from "../topology/types.ts";
import type { BundleKind, BundleStore, PendingBundle, QueuedAnchor, VectorHit, VectorState } from "./bundle-types.ts";
import { EVENT_COLUMNS, toEvent } from "./sqlite-read.ts";
import { filters } from "./sqlite-search.ts";
import type { EventQuery } from "./types.ts";

const KIND_OF_TYPE: Partial<Record<EventType, BundleKind>> = {
  tool_call: "tool",
  error: "error",
  test_result: "test",
  decision: "decision",
  resume_point: "resume",
  user_message: "request",
};
/** Most nearest neighbours a filtered query asks for before settling for fewer hits. */
const MAX_NEIGHBOURS = 4_096;

const COLS = EVENT_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");

function vectorBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function createBundleStore(db: Database.Database): BundleStore {
  const getSetting = db.prepare("SELECT value FROM settings WHERE key = ?").pluck();
  const putSetting = db.prepare(
    "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const queue = db.prepare(
    `SELECT q.event_rowid AS queue_rowid, ${EVENT_COLUMNS} FROM bundle_queue q JOIN session_events ON session_events.rowid = q.event_rowid ORDER BY q.event_rowid LIMIT ?`,
  );
  const orphans = db.prepare(
    "DELETE FROM bundle_queue WHERE event_rowid NOT IN (SELECT rowid FROM session_events) AND event_rowid <= ?",
  );
  const unqueue = db.prepare("DELETE FROM bundle_queue WHERE event_rowid = ?");
  const bundleText = db.prepare("SELECT text FROM bundles WHERE anchor_rowid = ?").pluck();
  const putBundle = db.prepare(`INSERT INTO bundles(anchor_rowid, event_id, session_id, kind, text, embedded)
    VALUES (@anchor_rowid, @event_id, @session_id, @kind, @text, 0)
    ON CONFLICT(anchor_rowid) DO UPDATE SET event_id = excluded.event_id, session_id = excluded.session_id,
      kind = excluded.kind, text = excluded.text, embedded = 0`);
  const dropBundle = db.prepare("DELETE FROM bundles WHERE anchor_rowid = ?");
  const pending = db.prepare(
    "SELECT anchor_rowid, kind, text FROM bundles WHERE embedded = 0 ORDER BY anchor_rowid LIMIT ?",
  );
  const markEmbedded = db.prepare("UPDATE bundles SET embedded = 1 WHERE anchor_rowid = ?");
  const getState = db.prepare("SELECT embedder, dimension FROM vector_state WHERE id = 1");
  const counts = db.prepare(`SELECT (SELECT count(*) FROM bundles) AS bundles,
    (SELECT count(*) FROM bundles WHERE embedded = 0) AS pending, (SELECT count(*) FROM bundle_queue) AS queued`);
  // Statements over the vector table are prepared when used: resetting drops and recreates the table.
  const dropVector = () => db.prepare("DELETE FROM bundle_vectors WHERE rowid = ?");
  const insertVector = () => db.prepare("INSERT INTO bundle_vectors(rowid, embedding, kind) VALUES (?, ?, ?)");

  return {
    getSetting: (key) => (getSetting.get(key) as string | undefined) ?? null,
    putSetting: (key, value) => void putSetting.run(key, value),
    bundleQueue(limit): QueuedAnchor[] {
      const rows = queue.all(limit) as Array<Parameters<typeof toEvent>[0] & { queue_rowid: number }>;
      // Queue entries whose event is gone (a trigger-free delete) would block the queue's head forever.
      if (rows.length < limit) orphans.run(Number.MAX_SAFE_INTEGER);
      return rows.map(({ queue_rowid, ...row }) => ({ rowid: queue_rowid, event: toEvent(row) as SessionEvent }));
    },
    putBundles(done, bundles) {
      db.transaction(() => {
        const built = new Set(bundles.map((b) => b.anchor_rowid));
        const del = dropVector();
        for (const b of bundles) {
          if (bundleText.get(b.anchor_rowid) === b.text) continue;
          putBundle.run(b);
          del.run(BigInt(b.anchor_rowid));
        }
        for (const rowid of done) {
          if (!built.has(rowid) && dropBundle.run(rowid).changes > 0) del.run(BigInt(rowid));
          unqueue.run(rowid);
        }
      })();
    },
    pendingBundles: (limit) => pending.all(limit) as PendingBundle[],
    putVectors(rows) {
      const del = dropVector();
      const ins = insertVector();
      db.transaction(() => {
        for (const r of rows) {
          del.run(BigInt(r.anchor_rowid));
          if (r.vector) ins.run(BigInt(r.anchor_rowid), vectorBlob(r.vector), r.kind);
          markEmbedded.run(r.anchor_rowid);
        }
      })();
    },
    vectorState(): VectorState {
      const state = getState.get() as { embedder: string; dimension: number } | undefined;
      const c = counts.get() as { bundles: number; pending: number; queued: number };
      return {
        embedder: state?.embedder ?? null,
        dimension: state?.dimension ?? null,
        bundles: c.bundles,
        embedded: c.bundles - c.pending,
        queued: c.queued,
      };
    },
    resetVectors(embedder, dimension) {
      if (!Number.isInteger(dimension) || dimension < 1 || dimension > 8192)
        throw new Error(`cannot store vectors of dimension ${dimension}`);
      db.transaction(() => {
        db.exec("DROP TABLE IF EXISTS bundle_vectors");
        db.exec(`CREATE VIRTUAL TABLE bundle_vectors USING vec0(embedding float[${dimension}], kind text)`);
        db.exec("UPDATE bundles SET embedded = 0 WHERE embedded <> 0");
        if (embedder === null) db.exec("DELETE FROM vector_state");
        else
          db.prepare(
            "INSERT OR REPLACE INTO vector_state(id, embedder, dimension, created_at) VALUES (1, ?, ?, ?)",
          ).run(embedder, dimension, new Date().toISOString());
      })();
    },
    nearestEvents(vector, q: EventQuery): VectorHit[] {
      const kinds = q.types
        ? [...new Set(q.types.map((t) => KIND_OF_TYPE[t]).filter((k): k is BundleKind => k !== undefined))]
        : [];
      if (q.types && kinds.length === 0) return [];
      const f = filters(q);
      const join = f.joinSessions ? "JOIN sessions s ON s.session_id = e.session_id" : "";
      const kindCond = kinds.length ? `AND kind IN (${kinds.map(() => "?").join(", ")})` : "";
      const sql = `WITH knn AS (SELECT rowid, distance FROM bundle_vectors WHERE embedding MATCH ? AND k = ? ${kindCond})
        SELECT ${COLS}, knn.distance AS distance, b.kind AS bundle_kind FROM knn
        JOIN bundles b ON b.anchor_rowid = knn.rowid JOIN session_events e ON e.event_id = b.event_id ${join}
        ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""} ORDER BY knn.distance, e.event_id LIMIT ?`;
      const stmt = db.prepare(sql);
      const onlyKinds = f.where.length === 0 || (f.where.length === 1 && q.types !== undefined);
      let k = onlyKinds ? q.limit : Math.max(200, q.limit * 10);
      for (;;) {
        const rows = stmt.all(vectorBlob(vector), k, ...kinds, ...f.params, q.limit) as Array<
          Parameters<typeof toEvent>[0] & { distance: number; bundle_kind: BundleKind }
        >;
        if (rows.length >= q.limit || k >= MAX_NEIGHBOURS) {
          const seen = new Set<string>();
          return rows
            .filter((r) => !seen.has(r.event_id) && seen.add(r.event_id))
            .map(({ distance, bundle_kind, ...row }) => ({
              event: toEvent(row) as SessionEvent,
              score: null,
              distance,
              bundle_kind,
            }));
        }
        k = Math.min(MAX_NEIGHBOURS, k * 4);
      }
    },
  };
}
