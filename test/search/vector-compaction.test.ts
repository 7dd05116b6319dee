/**
 * The vector index's dead slots: re-embedded and deleted vectors leave slots in the sign-bit chunks until a
 * compaction rebuilds them from the codes. Compaction must still happen once the dead slots pile up, leave exactly
 * one slot per code, and change no similarity; a run that adds a handful of vectors must not rebuild anything.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticEmbedder } from "../../src/embedders/static.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import type { BundleKind } from "../../src/store/bundle-types.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { clientFixtures, realFixtures } from "../helpers/transcripts.ts";

let index: TempIndex;
let store: Store;
let raw: Database.Database;
let vectors: Array<{ anchor_rowid: number; kind: BundleKind; vector: Float32Array }>;

const slots = () => raw.prepare("SELECT sum(length(kinds)) FROM vector_bits").pluck().get() as number;
const codes = () => raw.prepare("SELECT count(*) FROM vector_codes").pluck().get() as number;

beforeAll(async () => {
  index = tempIndex("cairn-compact-", [...realFixtures(), ...clientFixtures()]);
  store = openStore(index.db);
  await refreshVectors(store, createStaticEmbedder());
  raw = new Database(index.db, { readonly: true });
  const rows = raw
    .prepare("SELECT v.anchor_rowid, b.kind, v.code FROM vector_codes v JOIN bundles b USING (anchor_rowid)")
    .all() as Array<{ anchor_rowid: number; kind: BundleKind; code: Buffer }>;
  vectors = rows.map((r) => ({
    anchor_rowid: r.anchor_rowid,
    kind: r.kind,
    vector: Float32Array.from(new Int8Array(r.code.buffer, r.code.byteOffset, r.code.length)),
  }));
}, 120_000);
afterAll(() => {
  raw?.close();
  store?.close();
  index?.remove();
});

describe("compacting the vector index", () => {
  it("rebuilds once re-embedded vectors left dead slots, and not for a few new ones", () => {
    // Compaction applies past one chunk of slots (4,096): every vector re-embedded three times passes it.
    expect(4 * vectors.length).toBeGreaterThan(4_096);
    const again = () => {
      for (let i = 0; i < 3; i++) store.putVectors(vectors);
    };
    const probe = vectors[0]!.vector;
    const ids = raw
      .prepare("SELECT event_id FROM session_events WHERE rowid IN (SELECT anchor_rowid FROM vector_codes)")
      .pluck()
      .all() as string[];
    const before = store.similarities(probe, ids);

    again();
    expect(slots()).toBe(4 * codes());
    expect(store.compactVectors()).toBe(true);
    expect(slots()).toBe(codes());
    expect(store.similarities(probe, ids)).toEqual(before);

    // A run that re-embedded a few: nothing to rebuild, and the chunks keep their slots.
    store.putVectors(vectors.slice(0, 20));
    expect(store.compactVectors()).toBe(false);
    expect(slots()).toBe(codes() + 20);

    // Every vector again: the dead slots are counted and dropped again.
    again();
    expect(store.compactVectors()).toBe(true);
    expect(slots()).toBe(codes());
    expect(store.similarities(probe, ids)).toEqual(before);
  });
});
