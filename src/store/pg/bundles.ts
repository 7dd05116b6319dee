/**
 * Evidence bundles and their vectors in PostgreSQL, kept as the SQLite index keeps them (`sqlite/bundles.ts`):
 * triggers queue the events that complete a bundle (migration 2), vectors are int8 codes and sign-bit chunks
 * (`shared/vector-codes.ts`). A nearest-neighbour query scans the bits in process, then ranks the candidates that pass
 * the query's filters by the cosine of their codes, computed here exactly as sqlite-vec computes it, so both
 * indexes rank alike. Where the server has pgvector (`CREATE EXTENSION vector` succeeded) each code is also kept
 * as a `vector` and the server ranks them itself (`vector.ts`).
 */
import {
  BUNDLE_END_CHARS,
  BUNDLE_KIND_OF_EVENT,
  BUNDLE_KINDS,
  type BundleKind,
  type CarriedBundles,
  type PendingBundle,
  type QueuedAnchor,
  type VectorHit,
  type VectorState,
  type VectorUpkeep,
} from "../bundle-types.ts";
import type { EventQuery } from "../query-types.ts";
import {
  type BitChunk,
  bitBytes,
  CHUNK_SLOTS,
  encodeVector,
  MAX_CANDIDATES,
  MIN_CANDIDATES,
  nearestByBits,
  toChunk,
} from "../shared/vector-codes.ts";
import type { PgConnection, PgOp } from "./bridge.ts";
import { PG_EVENT_COLUMNS, pgEvent } from "./read.ts";
import { pgFilters, sessionJoinOf } from "./search.ts";
import { hitsOf, pgVectorNearest, pgVectorRefresh } from "./vector.ts";

/** sqlite-vec's `vec_distance_cosine` on int8 vectors: integer sums, roots and division in double, a float result. */
export function codeDistance(a: Uint8Array, b: Uint8Array): number {
  // bytea crosses the worker boundary as a plain Uint8Array
  const x8 = new Int8Array(a.buffer, a.byteOffset, a.length);
  const y8 = new Int8Array(b.buffer, b.byteOffset, b.length);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  const n = Math.min(x8.length, y8.length);
  for (let i = 0; i < n; i++) {
    const x = x8[i]!;
    const y = y8[i]!;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return Math.fround(1 - dot / (Math.sqrt(aa) * Math.sqrt(bb)));
}

export interface PgBundleDeps {
  db: PgConnection;
  /** Runs `fn` in a write transaction (the store's, holding the writers' lock). */
  transaction<T>(fn: () => T): T;
  /** Whether vector_codes has pgvector's `embedding` column. */
  pgvector: boolean;
}

export interface PgBundles extends VectorUpkeep {
  /**
   * Takes one session's bundles from another index (`cairn push`), inside the caller's transaction after its
   * events: bundles replace the team's, anchors built there leave the queue, and codes come along when the team
   * index holds vectors of the same embedder (or none yet, and then it takes that embedder's). Otherwise the
   * bundles wait to be embedded here. Returns how many bundles and vectors it stored.
   */
  putSessionBundles(sessionId: string, carried: CarriedBundles): { bundles: number; vectors: number };
}

export function createPgBundles({ db, transaction, pgvector }: PgBundleDeps): PgBundles {
  const getSetting = (key: string) =>
    db.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])[0]?.value ?? null;
  const setting = (key: string, value: string): PgOp => ({
    sql: "INSERT INTO settings(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    params: [key, value],
  });
  const getState = () =>
    db.query<{ embedder: string; dimension: number }>("SELECT embedder, dimension FROM vector_state WHERE id = 1")[0];
  const bumpGeneration = () =>
    db.query(
      `INSERT INTO settings(key, value) VALUES ('vector_generation', '1')
       ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text`,
    );

  let cached: { generation: string | null; chunks: Map<number, { slots: number; chunk: BitChunk }> } = {
    generation: null,
    chunks: new Map(),
  };
  /** The sign-bit chunks, those already read kept while the connection lives (a chunk only grows by appends). */
  function loadChunks(): BitChunk[] {
    const [gen, sizes] = db.many([
      { sql: "SELECT value FROM settings WHERE key = 'vector_generation'" },
      { sql: "SELECT chunk, length(kinds) AS slots FROM vector_bits ORDER BY chunk" },
    ]) as [Array<{ value: string }>, Array<{ chunk: number; slots: number }>];
    const generation = gen[0]?.value ?? "0";
    if (cached.generation !== generation) cached = { generation, chunks: new Map() };
    const stale = sizes.filter(({ chunk, slots }) => cached.chunks.get(chunk)?.slots !== slots).map((r) => r.chunk);
    if (stale.length > 0)
      for (const row of db.query<{ chunk: number; rowids: Buffer; kinds: Buffer; bits: Buffer }>(
        "SELECT chunk, rowids, kinds, bits FROM vector_bits WHERE chunk = ANY($1::int[])",
        [stale],
      ))
        cached.chunks.set(row.chunk, { slots: row.kinds.length, chunk: toChunk(row) });
    return sizes.map(({ chunk }) => cached.chunks.get(chunk)!.chunk);
  }

  /** Appends sign bits to the last chunk, starting new chunks as they fill (inside a write transaction). */
  function appendBits(entries: ReadonlyArray<{ rowid: number; kind: number; bits: Buffer }>): void {
    let at = 0;
    while (at < entries.length) {
      const last = db.query<{ chunk: number; rowids: Buffer; kinds: Buffer; bits: Buffer }>(
        "SELECT chunk, rowids, kinds, bits FROM vector_bits ORDER BY chunk DESC LIMIT 1",
      )[0];
      const full = !last || last.kinds.length >= CHUNK_SLOTS;
      const chunk = full ? (last ? last.chunk + 1 : 0) : last.chunk;
      const take = entries.slice(at, at + CHUNK_SLOTS - (full ? 0 : last.kinds.length));
      const rowids = Buffer.alloc(take.length * 4);
      take.forEach((e, i) => {
        rowids.writeUInt32LE(e.rowid, i * 4);
      });
      const keep = (b: Buffer | undefined) => (full || !b ? Buffer.alloc(0) : b);
      db.query(
        `INSERT INTO vector_bits(chunk, rowids, kinds, bits) VALUES ($1, $2, $3, $4)
         ON CONFLICT (chunk) DO UPDATE SET rowids = excluded.rowids, kinds = excluded.kinds, bits = excluded.bits`,
        [
          chunk,
          Buffer.concat([keep(last?.rowids), rowids]),
          Buffer.concat([keep(last?.kinds), Buffer.from(take.map((e) => e.kind))]),
          Buffer.concat([keep(last?.bits), ...take.map((e) => e.bits)]),
        ],
      );
      at += take.length;
    }
  }

  /** Stores codes (and their bits) for anchors: the bits are the codes' signs, as a compaction rebuilds them. */
  function putCodes(rows: ReadonlyArray<{ anchor: number; kind: BundleKind; code: Buffer; bits: Buffer }>): void {
    if (rows.length === 0) return;
    const anchors = rows.map((r) => r.anchor);
    db.query(
      `INSERT INTO vector_codes(anchor_id, code) SELECT * FROM unnest($1::bigint[], $2::bytea[])
       ON CONFLICT (anchor_id) DO UPDATE SET code = excluded.code`,
      [anchors, rows.map((r) => r.code)],
    );
    if (pgvector) pgVectorRefresh(db, anchors);
    appendBits(rows.map((r) => ({ rowid: r.anchor, kind: BUNDLE_KINDS.indexOf(r.kind), bits: r.bits })));
  }

  function compact(): void {
    transaction(() => {
      const live = db.query<{ rowid: number; code: Buffer; kind: BundleKind }>(
        "SELECT v.anchor_id AS rowid, v.code, b.kind FROM vector_codes v JOIN bundles b USING (anchor_id) ORDER BY v.anchor_id",
      );
      db.query("DELETE FROM vector_bits");
      bumpGeneration();
      appendBits(live.map((r) => ({ rowid: r.rowid, kind: BUNDLE_KINDS.indexOf(r.kind), bits: bitsOfCode(r.code) })));
    });
  }

  const ends = `CASE WHEN octet_length(text) > ${2 * BUNDLE_END_CHARS} THEN substr(text, 1, ${BUNDLE_END_CHARS}) || chr(10) || right(text, ${BUNDLE_END_CHARS}) ELSE text END AS text`;

  return {
    getSetting,
    putSetting: (key, value) => void db.many([setting(key, value)]),
    bundleQueue(limit): QueuedAnchor[] {
      const rows = db.query<Record<string, unknown> & { queue_rowid: number }>(
        `SELECT q.anchor_id AS queue_rowid, ${PG_EVENT_COLUMNS.replace("text", ends)}
         FROM bundle_queue q JOIN session_events e ON e.id = q.anchor_id ORDER BY q.anchor_id LIMIT $1`,
        [limit],
      );
      // Queue entries whose event is gone would block the queue's head forever.
      if (rows.length < limit)
        db.query(
          "DELETE FROM bundle_queue q WHERE NOT EXISTS (SELECT 1 FROM session_events e WHERE e.id = q.anchor_id)",
        );
      return rows.map(({ queue_rowid, ...row }) => ({ rowid: queue_rowid, event: pgEvent(row as never) }));
    },
    putBundles(done, bundles) {
      transaction(() => {
        // A bundle whose text changed loses its vector and waits to be embedded again.
        db.many([
          {
            sql: `WITH input AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[])
                 AS t(anchor_id, event_id, session_id, kind, text)),
               changed AS (INSERT INTO bundles(anchor_id, event_id, session_id, kind, text, embedded)
                 SELECT anchor_id, event_id, session_id, kind, text, false FROM input
                 ON CONFLICT (anchor_id) DO UPDATE SET event_id = excluded.event_id, session_id = excluded.session_id,
                   kind = excluded.kind, text = excluded.text, embedded = false
                 WHERE bundles.text IS DISTINCT FROM excluded.text RETURNING anchor_id)
             DELETE FROM vector_codes WHERE anchor_id IN (SELECT anchor_id FROM changed)`,
            params: [
              bundles.map((b) => b.anchor_rowid),
              bundles.map((b) => b.event_id),
              bundles.map((b) => b.session_id),
              bundles.map((b) => b.kind),
              bundles.map((b) => b.text),
            ],
          },
          {
            sql: `WITH dropped AS (DELETE FROM bundles WHERE anchor_id = ANY($1::bigint[]) AND NOT anchor_id = ANY($2::bigint[])
                 RETURNING anchor_id)
             DELETE FROM vector_codes WHERE anchor_id IN (SELECT anchor_id FROM dropped)`,
            params: [done, bundles.map((b) => b.anchor_rowid)],
          },
          { sql: "DELETE FROM bundle_queue WHERE anchor_id = ANY($1::bigint[])", params: [done] },
        ]);
      });
    },
    pendingBundles: (limit, after = 0) =>
      db.query<PendingBundle>(
        "SELECT anchor_id AS anchor_rowid, kind, text FROM bundles WHERE NOT embedded AND anchor_id > $2 ORDER BY anchor_id LIMIT $1",
        [limit, after],
      ),
    putVectors(rows) {
      transaction(() => {
        db.many([
          {
            sql: "UPDATE bundles SET embedded = true WHERE anchor_id = ANY($1::bigint[])",
            params: [rows.map((r) => r.anchor_rowid)],
          },
          {
            sql: "DELETE FROM vector_codes WHERE anchor_id = ANY($1::bigint[])",
            params: [rows.filter((r) => !r.vector).map((r) => r.anchor_rowid)],
          },
        ]);
        putCodes(
          rows.flatMap((r) => (r.vector ? [{ anchor: r.anchor_rowid, kind: r.kind, ...encodeVector(r.vector) }] : [])),
        );
      });
    },
    compactVectors(): boolean {
      const [c] = db.query<{ slots: number; codes: number }>(
        "SELECT (SELECT coalesce(sum(length(kinds)), 0) FROM vector_bits) AS slots, (SELECT count(*) FROM vector_codes) AS codes",
      );
      if (!c || c.slots <= CHUNK_SLOTS || c.slots < 1.25 * c.codes) return false;
      compact();
      return true;
    },
    vectorInfo() {
      const [r] = db.query<{ embedder: string | null; dimension: number | null; any: boolean; pending: boolean }>(
        `SELECT (SELECT embedder FROM vector_state WHERE id = 1), (SELECT dimension FROM vector_state WHERE id = 1),
          EXISTS (SELECT 1 FROM vector_codes) AS any, EXISTS (SELECT 1 FROM bundles WHERE NOT embedded) AS pending`,
      );
      return { embedder: r?.embedder ?? null, dimension: r?.dimension ?? null, any: !!r?.any, pending: !!r?.pending };
    },
    vectorState(): VectorState {
      const [r] = db.query<{
        embedder: string | null;
        dimension: number | null;
        bundles: number;
        pending: number;
        queued: number;
      }>(
        `SELECT (SELECT embedder FROM vector_state WHERE id = 1), (SELECT dimension FROM vector_state WHERE id = 1),
          (SELECT count(*) FROM bundles) AS bundles, (SELECT count(*) FROM bundles WHERE NOT embedded) AS pending,
          (SELECT count(*) FROM bundle_queue) AS queued`,
      );
      return {
        embedder: r?.embedder ?? null,
        dimension: r?.dimension ?? null,
        bundles: r?.bundles ?? 0,
        embedded: (r?.bundles ?? 0) - (r?.pending ?? 0),
        queued: r?.queued ?? 0,
      };
    },
    resetVectors(embedder, dimension) {
      if (!Number.isInteger(dimension) || dimension < 1 || dimension > 8192)
        throw new Error(`cannot store vectors of dimension ${dimension}`);
      transaction(() => {
        db.many([
          { sql: "DELETE FROM vector_codes" },
          { sql: "DELETE FROM vector_bits" },
          { sql: "UPDATE bundles SET embedded = false WHERE embedded" },
          { sql: "DELETE FROM vector_state" },
          ...(embedder === null
            ? []
            : [
                {
                  sql: "INSERT INTO vector_state(id, embedder, dimension, created_at) VALUES (1, $1, $2, $3)",
                  params: [embedder, dimension, new Date().toISOString()],
                },
              ]),
        ]);
        bumpGeneration();
      });
    },
    similarities(vector, eventIds) {
      const out = new Map<string, number>();
      const state = getState();
      if (eventIds.length === 0 || !state || state.dimension !== vector.length) return out;
      const q = encodeVector(vector).code;
      const rows = db.query<{ id: string; code: Buffer }>(
        `SELECT b.event_id AS id, v.code FROM bundles b JOIN vector_codes v ON v.anchor_id = b.anchor_id
         WHERE b.event_id = ANY($1::text[])`,
        [eventIds],
      );
      const best = new Map<string, number>();
      for (const r of rows) best.set(r.id, Math.min(best.get(r.id) ?? 2, codeDistance(r.code, q)));
      for (const [id, d] of best) out.set(id, 1 - d);
      return out;
    },
    nearestEvents(vector, q: EventQuery): VectorHit[] {
      const kinds = q.types
        ? [...new Set(q.types.map((t) => BUNDLE_KIND_OF_EVENT[t]).filter((k): k is BundleKind => k !== undefined))]
        : [];
      if (q.types && kinds.length === 0) return [];
      const state = getState();
      if (!state || state.dimension !== vector.length) return [];
      const query = encodeVector(vector);
      if (query.bits.length !== bitBytes(vector.length)) return [];
      if (pgvector) return pgVectorNearest(db, query.code, q, kinds);
      return scanNearest(db, loadChunks(), query, q, kinds);
    },
    putSessionBundles(sessionId, carried) {
      return transaction(() => {
        const names = [...new Set([...carried.bundles.map((b) => b.anchor_event_id), ...carried.queued])];
        const idOf = new Map(
          db
            .query<{ id: number; event_id: string }>(
              "SELECT id, event_id FROM session_events WHERE event_id = ANY($1::text[])",
              [names],
            )
            .map((r) => [r.event_id, r.id]),
        );
        let state = getState();
        if (!state && carried.embedder !== null && carried.dimension !== null) {
          const [any] = db.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM vector_codes) AS any");
          if (!any?.any) {
            db.query("INSERT INTO vector_state(id, embedder, dimension, created_at) VALUES (1, $1, $2, $3)", [
              carried.embedder,
              carried.dimension,
              new Date().toISOString(),
            ]);
            state = { embedder: carried.embedder, dimension: carried.dimension };
          }
        }
        const same =
          state !== undefined && state.embedder === carried.embedder && state.dimension === carried.dimension;
        const rows = carried.bundles.flatMap((b) => {
          const anchor = idOf.get(b.anchor_event_id);
          return anchor === undefined ? [] : [{ ...b, anchor, embedded: same && b.embedded }];
        });
        const anchors = rows.map((r) => r.anchor);
        db.many([
          {
            sql: `DELETE FROM bundle_queue q USING session_events e WHERE e.id = q.anchor_id AND e.session_id = $1
              AND NOT e.event_id = ANY($2::text[])`,
            params: [sessionId, carried.queued],
          },
          { sql: "DELETE FROM vector_codes WHERE anchor_id = ANY($1::bigint[])", params: [anchors] },
          {
            sql: `INSERT INTO bundles(anchor_id, event_id, session_id, kind, text, embedded)
              SELECT a, e, $3, k, t, m FROM unnest($1::bigint[], $2::text[], $4::text[], $5::text[], $6::boolean[]) AS x(a, e, k, t, m)
              ON CONFLICT (anchor_id) DO UPDATE SET event_id = excluded.event_id, session_id = excluded.session_id,
                kind = excluded.kind, text = excluded.text, embedded = excluded.embedded`,
            params: [
              anchors,
              rows.map((r) => r.event_id),
              sessionId,
              rows.map((r) => r.kind),
              rows.map((r) => r.text),
              rows.map((r) => r.embedded),
            ],
          },
        ]);
        const codes = rows.flatMap((r) =>
          r.embedded && r.code ? [{ anchor: r.anchor, kind: r.kind, code: r.code, bits: bitsOfCode(r.code) }] : [],
        );
        putCodes(codes);
        return { bundles: rows.length, vectors: codes.length };
      });
    },
    sessionBundles(sessionId): CarriedBundles {
      const [state, rows, queued] = db.many([
        { sql: "SELECT embedder, dimension FROM vector_state WHERE id = 1" },
        {
          sql: `SELECT a.event_id AS anchor_event_id, b.event_id, b.kind, b.text, b.embedded, v.code
            FROM bundles b JOIN session_events a ON a.id = b.anchor_id LEFT JOIN vector_codes v ON v.anchor_id = b.anchor_id
            WHERE b.session_id = $1 ORDER BY b.anchor_id`,
          params: [sessionId],
        },
        {
          sql: "SELECT e.event_id FROM bundle_queue q JOIN session_events e ON e.id = q.anchor_id WHERE e.session_id = $1 ORDER BY q.anchor_id",
          params: [sessionId],
        },
      ]) as [Array<{ embedder: string; dimension: number }>, CarriedBundles["bundles"], Array<{ event_id: string }>];
      return {
        embedder: state[0]?.embedder ?? null,
        dimension: state[0]?.dimension ?? null,
        queued: queued.map((r) => r.event_id),
        bundles: rows,
      };
    },
  };
}

function bitsOfCode(code: Uint8Array): Buffer {
  return encodeVector(Float32Array.from(new Int8Array(code.buffer, code.byteOffset, code.length))).bits;
}

/** The sign-bit scan, then the candidates that pass the filters ranked by the cosine of their codes. */
function scanNearest(
  db: PgConnection,
  chunks: BitChunk[],
  query: { code: Buffer; bits: Buffer },
  q: EventQuery,
  kinds: BundleKind[],
): VectorHit[] {
  const allowed = new Set(kinds.map((k) => BUNDLE_KINDS.indexOf(k)));
  const kindOk = kinds.length ? (k: number) => allowed.has(k) : undefined;
  const f = pgFilters(q, 1);
  const sql = `SELECT e.event_id, v.code, b.kind FROM unnest($1::bigint[]) AS c(anchor)
    JOIN vector_codes v ON v.anchor_id = c.anchor JOIN bundles b ON b.anchor_id = v.anchor_id
    JOIN session_events e ON e.event_id = b.event_id ${sessionJoinOf(f)}
    ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""}`;
  // Filters beyond the kind may drop most candidates: look further before settling for fewer hits.
  let wanted = Math.max(MIN_CANDIDATES, q.limit * 20);
  for (;;) {
    const candidates = nearestByBits(query.bits, chunks, wanted, kindOk);
    const rows = db
      .query<{ event_id: string; code: Buffer; kind: BundleKind }>(sql, [candidates, ...f.params])
      .map((r) => ({ event_id: r.event_id, kind: r.kind, distance: codeDistance(r.code, query.code) }))
      .sort((a, b) => a.distance - b.distance || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0))
      .slice(0, q.limit);
    if (rows.length >= q.limit || candidates.length < wanted || wanted >= MAX_CANDIDATES) return hitsOf(db, rows);
    wanted *= 4;
  }
}
