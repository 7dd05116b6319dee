/**
 * Evidence bundles and their vectors. Triggers on `session_events` queue the events that complete a bundle and
 * drop bundles and vectors with their events (migration 3); this file builds nothing itself: the bundle text
 * comes from `shared/bundle-text.ts`, the vectors from an embedder. An embedded bundle keeps its text's digest and
 * not the text (migration 19), which is built again from its events when asked for (`bundle-texts.ts`): by the
 * next embedder, and by `cairn push`. Vectors are stored as int8 codes and sign-bit chunks (`shared/vector-codes.ts`);
 * a nearest-neighbour query scans the bits in process and ranks the candidates by sqlite-vec's cosine distance over
 * their codes, joined with the same filters as a text query.
 */
import type Database from "better-sqlite3";
import type { SessionEvent } from "../../topology/types.ts";
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
import { bundleDigest } from "../shared/bundle-text.ts";
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
import { createBundleTexts } from "./bundle-texts.ts";
import { endsOf, headOf } from "./codec-sql.ts";
import { once } from "./lazy.ts";
import { eventColumns, toEvent } from "./read.ts";
import { filters } from "./search.ts";
import { createSessionScopes } from "./session-rows.ts";

const COLS = eventColumns("e");

/** `vec` loads sqlite-vec into the connection (once): only the statements that compare codes need it. */
/** A `session:` filter with up to this many bundles has its nearest vectors looked for among them alone. */
const MAX_SESSION_ANCHORS = 100_000;

export function createBundleStore(db: Database.Database, vec: () => void = () => undefined): VectorUpkeep {
  const getSetting = once(() => db.prepare("SELECT value FROM settings WHERE key = ?").pluck());
  const putSetting = once(() =>
    db.prepare("INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
  );
  // A bundle shows a text's head and tail only, so a many-megabyte tool output is read as its two ends (both
  // longer than any bundle shows) instead of whole; octet_length reads the size without the text.
  const ends = eventColumns("e", { text: endsOf("e.text", BUNDLE_END_CHARS) });
  const queue = once(() =>
    db.prepare(
      `SELECT q.event_rowid AS queue_rowid, ${ends} FROM bundle_queue q JOIN session_events e ON e.rowid = q.event_rowid ORDER BY q.event_rowid LIMIT ?`,
    ),
  );
  const orphans = once(() =>
    db.prepare(
      "DELETE FROM bundle_queue WHERE event_rowid NOT IN (SELECT rowid FROM session_events) AND event_rowid <= ?",
    ),
  );
  const heads = once(() =>
    db.prepare(
      `SELECT ${eventColumns("e", { text: headOf("e.text", "@chars") })} FROM session_events e WHERE event_id IN (SELECT value FROM json_each(@ids))`,
    ),
  );
  const dropCodes = once(() =>
    db.prepare("DELETE FROM vector_codes WHERE anchor_rowid IN (SELECT value FROM json_each(?))"),
  );
  const dropBundles = once(() =>
    db.prepare("DELETE FROM bundles WHERE anchor_rowid IN (SELECT value FROM json_each(?))"),
  );
  const unqueueAll = once(() =>
    db.prepare("DELETE FROM bundle_queue WHERE event_rowid IN (SELECT value FROM json_each(?))"),
  );
  const bundleHad = once(() => db.prepare("SELECT text, digest, embedded FROM bundles WHERE anchor_rowid = ?"));
  const putBundle = once(() =>
    db.prepare(`INSERT INTO bundles(anchor_rowid, event_id, session_id, kind, text, embedded, digest)
    VALUES (@anchor_rowid, @event_id, @session_id, @kind, @text, 0, @digest)
    ON CONFLICT(anchor_rowid) DO UPDATE SET event_id = excluded.event_id, session_id = excluded.session_id,
      kind = excluded.kind, text = excluded.text, embedded = 0, digest = excluded.digest`),
  );
  const pending = once(() =>
    db.prepare(
      "SELECT anchor_rowid, kind, text, digest FROM bundles WHERE embedded = 0 AND anchor_rowid > ? ORDER BY anchor_rowid LIMIT ?",
    ),
  );
  // A bundle given its digest (any written since migration 19, or converted) lets its text go once embedded. It is
  // deleted and written again, not updated: SQLite merges pages a delete leaves mostly empty, never those an update
  // shrinks, so updated rows kept the texts' pages (pi corpus: 2,445 pages of bundles 80% empty, 20 MB).
  const markEmbedded = once(() =>
    db.prepare(
      "UPDATE bundles SET embedded = 1 WHERE anchor_rowid IN (SELECT value FROM json_each(?)) AND digest IS NULL",
    ),
  );
  const takeBundles = once(() =>
    db.prepare(`DELETE FROM bundles WHERE anchor_rowid IN (SELECT value FROM json_each(?)) AND digest IS NOT NULL
      RETURNING anchor_rowid, event_id, session_id, kind, digest`),
  );
  const putEmbedded = once(() =>
    db.prepare(`INSERT INTO bundles(anchor_rowid, event_id, session_id, kind, text, embedded, digest)
      VALUES (@anchor_rowid, @event_id, @session_id, @kind, '', 1, @digest)`),
  );
  /** Marks these bundles embedded: a statement or two for the batch and an insert per bundle. */
  const embedded = (anchors: readonly number[]) => {
    const ids = JSON.stringify(anchors);
    for (const row of takeBundles().all(ids)) putEmbedded().run(row);
    markEmbedded().run(ids);
  };
  const putDigest = once(() => db.prepare("UPDATE bundles SET digest = ? WHERE anchor_rowid = ?"));
  const textsOf = createBundleTexts(db);
  /** The rows with their texts, those kept as a digest alone (an empty text) built again from their events. */
  function withTexts<T extends { anchor_rowid: number; text: string; digest: Buffer | null }>(rows: T[]): T[] {
    const bare = rows.filter((r) => r.digest !== null && r.text === "").map((r) => r.anchor_rowid);
    if (bare.length === 0) return rows;
    const texts = textsOf(bare);
    return rows.map((r) => (texts.has(r.anchor_rowid) ? { ...r, text: texts.get(r.anchor_rowid)! } : r));
  }
  const getState = once(() => db.prepare("SELECT embedder, dimension FROM vector_state WHERE id = 1"));
  const counts = once(() =>
    db.prepare(`SELECT (SELECT count(*) FROM bundles) AS bundles,
    (SELECT count(*) FROM bundles WHERE embedded = 0) AS pending, (SELECT count(*) FROM bundle_queue) AS queued`),
  );
  const anyCode = once(() => db.prepare("SELECT 1 FROM vector_codes LIMIT 1").pluck());
  let similarity: Database.Statement | undefined;
  const similarityOf = () => {
    vec();
    similarity ??=
      db.prepare(`SELECT b.event_id AS id, min(vec_distance_cosine(vec_int8(v.code), vec_int8(?))) AS distance
    FROM bundles b JOIN vector_codes v ON v.anchor_rowid = b.anchor_rowid
    WHERE b.event_id IN (SELECT value FROM json_each(?)) GROUP BY b.event_id`);
    return similarity;
  };
  const anyPending = once(() => db.prepare("SELECT 1 FROM bundles WHERE embedded = 0 LIMIT 1").pluck());
  const dropCode = once(() => db.prepare("DELETE FROM vector_codes WHERE anchor_rowid = ?"));
  const putCode = once(() => db.prepare("INSERT OR REPLACE INTO vector_codes(anchor_rowid, code) VALUES (?, ?)"));
  const lastChunk = once(() =>
    db.prepare("SELECT chunk, rowids, kinds, bits FROM vector_bits ORDER BY chunk DESC LIMIT 1"),
  );
  const putChunk = once(() =>
    db.prepare("INSERT OR REPLACE INTO vector_bits(chunk, rowids, kinds, bits) VALUES (?, ?, ?, ?)"),
  );
  const chunkSizes = once(() => db.prepare("SELECT chunk, length(kinds) AS slots FROM vector_bits ORDER BY chunk"));
  const oneChunk = once(() => db.prepare("SELECT rowids, kinds, bits FROM vector_bits WHERE chunk = ?"));
  // Chunks already read, kept while this connection lives (an MCP server, a web server): a chunk only grows by
  // appends, and resets and compactions bump the generation.
  let cached: { generation: string | null; chunks: Map<number, { slots: number; chunk: BitChunk }> } = {
    generation: null,
    chunks: new Map(),
  };
  const generation = () => (getSetting().get("vector_generation") as string | undefined) ?? "0";
  const bumpGeneration = () => putSetting().run("vector_generation", String(Number(generation()) + 1));
  function loadChunks(): BitChunk[] {
    const gen = generation();
    if (cached.generation !== gen) cached = { generation: gen, chunks: new Map() };
    const out: BitChunk[] = [];
    for (const { chunk, slots } of chunkSizes().all() as Array<{ chunk: number; slots: number }>) {
      let entry = cached.chunks.get(chunk);
      if (!entry || entry.slots !== slots) {
        const row = oneChunk().get(chunk) as { rowids: Buffer; kinds: Buffer; bits: Buffer };
        entry = { slots, chunk: toChunk(row) };
        cached.chunks.set(chunk, entry);
      }
      out.push(entry.chunk);
    }
    return out;
  }
  // A `session:` filter's bundles, when few: the nearest vectors are looked for among them only, not among all
  // until enough pass the filter (at 1 M events, a session's hybrid search spent 100 ms there).
  const anchorsOf = once(() =>
    db.prepare("SELECT anchor_rowid FROM bundles WHERE session_id >= ? AND session_id < ? LIMIT ?").pluck(),
  );
  const sessionAnchors = (q: EventQuery): Set<number> | undefined => {
    if (!q.sessionPrefix) return undefined;
    const rows = anchorsOf().all(q.sessionPrefix, `${q.sessionPrefix}\uffff`, MAX_SESSION_ANCHORS + 1) as number[];
    return rows.length > MAX_SESSION_ANCHORS ? undefined : new Set(rows);
  };
  const carriedOf = once(() =>
    db.prepare(`SELECT b.anchor_rowid, a.event_id AS anchor_event_id, b.event_id, b.kind, b.text, b.embedded, v.code, b.digest
    FROM bundles b JOIN session_events a ON a.rowid = b.anchor_rowid LEFT JOIN vector_codes v ON v.anchor_rowid = b.anchor_rowid
    WHERE b.session_id = ? ORDER BY b.anchor_rowid`),
  );
  const queuedOf = createSessionScopes(db).statement(
    (s) =>
      `SELECT e.event_id FROM bundle_queue q JOIN session_events e ON e.rowid = q.event_rowid WHERE ${s.of("e")} ORDER BY q.event_rowid`,
    (st) => st.pluck(),
  );
  /** The vector slots there were when the codes were last counted for a compaction (compactVectors). */
  const SLOTS_COUNTED = "vector_slots_counted";
  const slotCount = once(() => db.prepare("SELECT coalesce(sum(length(kinds)), 0) FROM vector_bits").pluck());
  const codeCount = once(() => db.prepare("SELECT count(*) FROM vector_codes").pluck());

  /** Appends sign bits to the last chunk, starting new chunks as they fill. */
  function appendBits(entries: ReadonlyArray<{ rowid: number; kind: number; bits: Buffer }>): void {
    let at = 0;
    while (at < entries.length) {
      const last = lastChunk().get() as { chunk: number; rowids: Buffer; kinds: Buffer; bits: Buffer } | undefined;
      const full = !last || last.kinds.length >= CHUNK_SLOTS;
      const chunk = full ? (last ? last.chunk + 1 : 0) : last.chunk;
      const room = CHUNK_SLOTS - (full ? 0 : last.kinds.length);
      const take = entries.slice(at, at + room);
      const rowids = Buffer.alloc(take.length * 4);
      take.forEach((e, i) => {
        rowids.writeUInt32LE(e.rowid, i * 4);
      });
      putChunk().run(
        chunk,
        Buffer.concat([full ? Buffer.alloc(0) : last.rowids, rowids]),
        Buffer.concat([full ? Buffer.alloc(0) : last.kinds, Buffer.from(take.map((e) => e.kind))]),
        Buffer.concat([full ? Buffer.alloc(0) : last.bits, ...take.map((e) => e.bits)]),
      );
      at += take.length;
    }
  }

  /** Rebuilds the chunks from the codes, dropping the slots of deleted and re-embedded vectors. */
  function compact(): void {
    db.transaction(() => {
      const live = db
        .prepare(
          "SELECT v.anchor_rowid AS rowid, v.code, b.kind FROM vector_codes v JOIN bundles b USING (anchor_rowid) ORDER BY v.anchor_rowid",
        )
        .all() as Array<{ rowid: number; code: Buffer; kind: BundleKind }>;
      db.exec("DELETE FROM vector_bits");
      bumpGeneration();
      appendBits(
        live.map((r) => ({
          rowid: r.rowid,
          kind: BUNDLE_KINDS.indexOf(r.kind),
          bits: encodeVector(Float32Array.from(new Int8Array(r.code.buffer, r.code.byteOffset, r.code.length))).bits,
        })),
      );
    })();
  }

  return {
    getSetting: (key) => (getSetting().get(key) as string | undefined) ?? null,
    putSetting: (key, value) => void putSetting().run(key, value),
    bundleQueue(limit): QueuedAnchor[] {
      const rows = queue().all(limit) as Array<Parameters<typeof toEvent>[0] & { queue_rowid: number }>;
      // Queue entries whose event is gone (a trigger-free delete) would block the queue's head forever.
      if (rows.length < limit) orphans().run(Number.MAX_SAFE_INTEGER);
      return rows.map(({ queue_rowid, ...row }) => ({ rowid: queue_rowid, event: toEvent(row) as SessionEvent }));
    },
    eventHeads(ids, chars) {
      if (ids.length === 0) return [];
      return (heads().all({ chars, ids: JSON.stringify(ids) }) as Array<Parameters<typeof toEvent>[0]>).map(
        (row) => toEvent(row) as SessionEvent,
      );
    },
    putBundles(done, bundles) {
      db.transaction(() => {
        const built = new Set(bundles.map((b) => b.anchor_rowid));
        for (const b of bundles) {
          const had = bundleHad().get(b.anchor_rowid) as
            | { text: string; digest: Buffer | null; embedded: number }
            | undefined;
          const digest = bundleDigest(b.text);
          // The same text keeps its vector. A bundle waiting to be embedded again (another embedder) may have let
          // its text go: it takes the one built now, which the embedder reads.
          const same = had && (had.digest === null ? had.text === b.text : had.digest.equals(digest));
          if (same && (had.embedded !== 0 || had.text === b.text)) continue;
          putBundle().run({ ...b, digest });
          // A code is only ever stored beside its bundle: a new bundle has none to drop.
          if (had !== undefined) dropCode().run(b.anchor_rowid);
        }
        // Anchors that no longer make a bundle lose it and its code (a code only ever sits beside its bundle), and
        // every anchor leaves the queue: a statement each for the whole batch, where one per anchor cost more.
        const gone = JSON.stringify(done.filter((rowid) => !built.has(rowid)));
        dropCodes().run(gone);
        dropBundles().run(gone);
        unqueueAll().run(JSON.stringify(done));
      })();
    },
    pendingBundles(limit, after = 0) {
      const stored = pending().all(after, limit) as Array<PendingBundle & { digest: Buffer | null }>;
      const rows = withTexts(stored);
      return rows.map(({ digest, ...p }, i) => {
        // A text built again from events changed in place since (a re-stated call) is the one embedded now.
        if (digest !== null && rows[i] !== stored[i]) {
          const now = bundleDigest(p.text);
          if (!now.equals(digest)) putDigest().run(now, p.anchor_rowid);
        }
        return p;
      });
    },
    putVectors(rows) {
      db.transaction(() => {
        const bits: Array<{ rowid: number; kind: number; bits: Buffer }> = [];
        embedded(rows.map((r) => r.anchor_rowid));
        for (const r of rows) {
          if (!r.vector) {
            dropCode().run(r.anchor_rowid);
            continue;
          }
          const encoded = encodeVector(r.vector);
          putCode().run(r.anchor_rowid, encoded.code);
          bits.push({ rowid: r.anchor_rowid, kind: BUNDLE_KINDS.indexOf(r.kind), bits: encoded.bits });
        }
        appendBits(bits);
      })();
    },
    compactVectors(): boolean {
      const slots = slotCount().get() as number;
      if (slots <= CHUNK_SLOTS) return false;
      // Counting the codes reads every one of them, which a run that appended a few lines should not pay for on a
      // large index (nor a watcher, on each change). Slots die when codes are replaced or deleted, so the count is
      // taken again only once the slots grew by a twentieth since the last one: holes left meanwhile wait for it.
      const counted = Number(getSetting().get(SLOTS_COUNTED) ?? 0);
      if (slots >= counted && slots < counted * 1.05) return false;
      const compacting = slots >= 1.25 * (codeCount().get() as number);
      if (compacting) compact();
      putSetting().run(SLOTS_COUNTED, String(compacting ? slotCount().get() : slots));
      return compacting;
    },
    vectorInfo() {
      const state = getState().get() as { embedder: string; dimension: number } | undefined;
      return {
        embedder: state?.embedder ?? null,
        dimension: state?.dimension ?? null,
        any: anyCode().get() !== undefined,
        pending: anyPending().get() !== undefined,
      };
    },
    vectorState(): VectorState {
      const state = getState().get() as { embedder: string; dimension: number } | undefined;
      const c = counts().get() as { bundles: number; pending: number; queued: number };
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
        db.exec("DELETE FROM vector_codes; DELETE FROM vector_bits;");
        bumpGeneration();
        db.exec("UPDATE bundles SET embedded = 0 WHERE embedded <> 0");
        if (embedder === null) db.exec("DELETE FROM vector_state");
        else
          db.prepare(
            "INSERT OR REPLACE INTO vector_state(id, embedder, dimension, created_at) VALUES (1, ?, ?, ?)",
          ).run(embedder, dimension, new Date().toISOString());
      })();
    },
    sessionBundles(sessionId): CarriedBundles {
      const state = getState().get() as { embedder: string; dimension: number } | undefined;
      const rows = carriedOf().all(sessionId) as Array<
        Omit<CarriedBundles["bundles"][number], "embedded"> & {
          anchor_rowid: number;
          embedded: number;
          digest: Buffer | null;
        }
      >;
      return {
        embedder: state?.embedder ?? null,
        dimension: state?.dimension ?? null,
        queued: queuedOf().all({ sid: sessionId }) as string[],
        bundles: withTexts(rows).map(({ anchor_rowid: _, digest, ...r }) => {
          // Events rewritten since the bundle was embedded would build another text than its vector's: that one
          // travels without its vector, to be embedded where it lands.
          const stale = digest !== null && !digest.equals(bundleDigest(r.text));
          return stale ? { ...r, embedded: false, code: null } : { ...r, embedded: r.embedded !== 0 };
        }),
      };
    },
    similarities(vector, eventIds) {
      const out = new Map<string, number>();
      const state = getState().get() as { dimension: number } | undefined;
      if (eventIds.length === 0 || !state || state.dimension !== vector.length) return out;
      const rows = similarityOf().all(encodeVector(vector).code, JSON.stringify(eventIds)) as Array<{
        id: string;
        distance: number;
      }>;
      for (const r of rows) out.set(r.id, 1 - r.distance);
      return out;
    },
    nearestEvents(vector, q: EventQuery): VectorHit[] {
      const kinds = q.types
        ? [...new Set(q.types.map((t) => BUNDLE_KIND_OF_EVENT[t]).filter((k): k is BundleKind => k !== undefined))]
        : [];
      if (q.types && kinds.length === 0) return [];
      const state = getState().get() as { dimension: number } | undefined;
      if (!state || state.dimension !== vector.length) return [];
      const allowed = new Set(kinds.map((k) => BUNDLE_KINDS.indexOf(k)));
      const anchors = sessionAnchors(q);
      if (anchors?.size === 0) return [];
      const keep =
        kinds.length || anchors
          ? (k: number, rowid: number) => (!kinds.length || allowed.has(k)) && (!anchors || anchors.has(rowid))
          : undefined;
      const query = encodeVector(vector);
      if (query.bits.length !== bitBytes(vector.length)) return [];
      const chunks = loadChunks();
      const f = filters(q);
      const join = f.joinSessions ? "JOIN sessions s ON s.session_id = e.session_id" : "";
      // CROSS JOIN keeps the candidates the outer loop: the planner cannot see how few they are and would
      // otherwise walk every event the filters allow (a second and more for kind:error since:… at a million).
      vec();
      const stmt = db.prepare(`WITH cand(anchor) AS (SELECT value FROM json_each(?))
        SELECT ${COLS}, vec_distance_cosine(vec_int8(v.code), vec_int8(?)) AS distance, b.kind AS bundle_kind
        FROM cand CROSS JOIN vector_codes v ON v.anchor_rowid = cand.anchor
        CROSS JOIN bundles b ON b.anchor_rowid = v.anchor_rowid CROSS JOIN session_events e ON e.event_id = b.event_id ${join}
        ${f.where.length ? `WHERE ${f.where.join(" AND ")}` : ""} ORDER BY distance, e.event_id LIMIT ?`);
      // Filters beyond the kind may drop most candidates: look further before settling for fewer hits.
      let wanted = Math.max(MIN_CANDIDATES, q.limit * 20);
      for (;;) {
        const candidates = nearestByBits(query.bits, chunks, wanted, keep);
        const rows = stmt.all(JSON.stringify(candidates), query.code, ...f.params, q.limit) as Array<
          Parameters<typeof toEvent>[0] & { distance: number; bundle_kind: BundleKind }
        >;
        if (rows.length >= q.limit || candidates.length < wanted || wanted >= MAX_CANDIDATES) {
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
        wanted *= 4;
      }
    },
  };
}
