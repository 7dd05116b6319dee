/**
 * pgvector, where the server has it: each int8 code is also kept as a `vector` (the same numbers, so the cosine
 * is the codes' cosine), and a nearest-neighbour query is one exact scan ordered by `<=>` in the server, with the
 * query's filters joined. Where `CREATE EXTENSION vector` fails (no package, no privilege) nothing here runs and
 * the store scans the codes' sign bits itself (`bundles.ts`).
 */
import type { SessionEvent } from "../../topology/types.ts";
import type { BundleKind, VectorHit } from "../bundle-types.ts";
import type { EventQuery } from "../query-types.ts";
import type { PgConnection } from "./bridge.ts";
import { PG_EVENT_COLUMNS, pgEvent } from "./read.ts";
import { pgFilters, sessionJoinOf } from "./search.ts";

/** The codes of some anchors as vectors: each byte read as a signed integer. */
const REFRESH = `UPDATE vector_codes SET embedding = (
    SELECT array_agg((get_byte(code, i) - CASE WHEN get_byte(code, i) > 127 THEN 256 ELSE 0 END)::real ORDER BY i)
    FROM generate_series(0, length(code) - 1) AS i)::vector`;

/** Whether this index keeps pgvector's column (readable by a read-only role). */
export function hasPgVector(db: PgConnection): boolean {
  const [r] = db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('vector_codes') AND attname = 'embedding'
      AND NOT attisdropped) AS ok`,
  );
  return r?.ok === true;
}

/**
 * Creates the extension and the column when the server can, outside any transaction (a failure must not abort
 * one), and fills the column for codes stored before. Returns whether the index now uses pgvector.
 */
export function enablePgVector(db: PgConnection): boolean {
  if (hasPgVector(db)) return true;
  const [r] = db.query<{ ok: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS ok",
  );
  if (!r?.ok) return false;
  try {
    db.query("CREATE EXTENSION IF NOT EXISTS vector");
    db.many([
      { sql: "BEGIN" },
      { sql: "ALTER TABLE vector_codes ADD COLUMN IF NOT EXISTS embedding vector" },
      { sql: `${REFRESH} WHERE embedding IS NULL` },
      { sql: "COMMIT" },
    ]);
    return true;
  } catch {
    db.query("ROLLBACK");
    return false;
  }
}

/** Inside the caller's write transaction. */
export function pgVectorRefresh(db: PgConnection, anchors: readonly number[]): void {
  db.query(`${REFRESH} WHERE anchor_id = ANY($1::bigint[])`, [anchors]);
}

export function pgVectorNearest(db: PgConnection, code: Buffer, q: EventQuery, kinds: BundleKind[]): VectorHit[] {
  const f = pgFilters(q, 3);
  const vector = `[${Array.from(new Int8Array(code.buffer, code.byteOffset, code.length)).join(",")}]`;
  const rows = db.query<{ event_id: string; kind: BundleKind; distance: number }>(
    `SELECT e.event_id, b.kind, (v.embedding <=> $1::vector) AS distance
     FROM vector_codes v JOIN bundles b ON b.anchor_id = v.anchor_id JOIN session_events e ON e.event_id = b.event_id
     ${sessionJoinOf(f)}
     WHERE v.embedding IS NOT NULL AND (cardinality($2::text[]) = 0 OR b.kind = ANY($2::text[]))
     ${f.where.length ? `AND ${f.where.join(" AND ")}` : ""}
     ORDER BY distance, e.event_id LIMIT $3`,
    [vector, kinds, q.limit, ...f.params],
  );
  return hitsOf(
    db,
    rows.map((r) => ({ ...r, distance: Math.fround(Number(r.distance)) })),
  );
}

/** The ranked (event, distance, kind) rows as hits, each event once, read in one round trip. */
export function hitsOf(
  db: PgConnection,
  rows: ReadonlyArray<{ event_id: string; kind: BundleKind; distance: number }>,
): VectorHit[] {
  if (rows.length === 0) return [];
  const events = new Map(
    db
      .query<Record<string, unknown>>(
        `SELECT ${PG_EVENT_COLUMNS} FROM session_events WHERE event_id = ANY($1::text[])`,
        [rows.map((r) => r.event_id)],
      )
      .map((r) => [String(r["event_id"]), pgEvent(r as never)] as const),
  );
  const seen = new Set<string>();
  const out: VectorHit[] = [];
  for (const r of rows) {
    const event: SessionEvent | undefined = events.get(r.event_id);
    if (!event || seen.has(r.event_id)) continue;
    seen.add(r.event_id);
    out.push({ event, score: null, distance: r.distance, bundle_kind: r.kind });
  }
  return out;
}
