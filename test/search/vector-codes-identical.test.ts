/**
 * The vectors the index stores for the real transcripts and the agents' own CLIs' transcripts: each static
 * embedder's int8 code is checked against the plain computation kept here (the embedder remembers what its tokens
 * add; this reads every token afresh), so a difference names its bundle, and the sign-bit chunks hold the anchors
 * in order. The bytes the indexer stored before issue 20's seventh round are compared by
 * `test/indexer/answers-identical.test.ts` (every session's bundles and codes, indexed from a temporary HOME): a
 * digest made here depended on where the checkout sits, since transcripts without ids of their own take them from
 * their path, and bundle texts show paths.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticEmbedder, featureVector, type StaticFeatures } from "../../src/embedders/static.ts";
import { shippedWordVectors, type WordVectors } from "../../src/embedders/word-vectors.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import { encodeVector } from "../../src/store/shared/vector-codes.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { clientFixtures, realFixtures } from "../helpers/transcripts.ts";

const TOKEN = /[A-Za-z_$][\w$]*(?:[./:@-]+[\w$]+)*|[0-9]+[A-Za-z_][\w]*/g;
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const CODE_LIKE = /[._/:@$]|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;

function plainFeatures(text: string, vectors: WordVectors): StaticFeatures {
  const words = new Map<number, number>();
  const code = new Map<string, number>();
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const m of text.slice(0, 6_000).matchAll(TOKEN)) {
    const token = m[0];
    if (CODE_LIKE.test(token)) {
      bump(code, token.toLowerCase());
      const base = token.split(/[/\\]/).pop();
      if (base && base !== token) bump(code, base.toLowerCase());
    }
    for (const part of token.match(HUMP) ?? []) {
      if (part.length < 2 || /^[0-9]+$/.test(part)) continue;
      const rank = vectors.rank(part.toLowerCase());
      if (rank === undefined) bump(code, part.toLowerCase());
      else bump(words, rank);
    }
  }
  return { words, code };
}

let index: TempIndex;
let db: Database.Database;
beforeAll(async () => {
  index = tempIndex("cairn-codes-", [...realFixtures(), ...clientFixtures()]);
  const store = openStore(index.db);
  try {
    await refreshVectors(store, createStaticEmbedder());
  } finally {
    store.close();
  }
  db = new Database(index.db, { readonly: true });
}, 120_000);
afterAll(() => {
  db?.close();
  index?.remove();
});

describe("stored vectors of the real transcripts", () => {
  it("are the plain computation's codes of the stored bundle texts, in anchor order in the chunks", () => {
    const table = shippedWordVectors();
    // An embedded bundle keeps no text (migration 16): the store builds it again from its events when asked.
    const texts = new Map<string, string>();
    const store = openStore(index.db, { readonly: true });
    try {
      for (const s of store.listSessions({ limit: 100_000 }))
        for (const b of store.sessionBundles(s.session_id).bundles) texts.set(b.anchor_event_id, b.text);
    } finally {
      store.close();
    }
    const rows = (
      db
        .prepare(
          `SELECT b.anchor_rowid, a.event_id AS anchor, b.text AS kept, v.code FROM bundles b
           JOIN session_events a ON a.rowid = b.anchor_rowid LEFT JOIN vector_codes v USING (anchor_rowid) ORDER BY anchor_rowid`,
        )
        .all() as Array<{ anchor_rowid: number; anchor: string; kept: string; code: Buffer | null }>
    ).map((r) => ({ ...r, text: texts.get(r.anchor)! }));
    expect(rows.every((r) => r.kept === "")).toBe(true);
    const wrong: number[] = [];
    const withCode: number[] = [];
    for (const r of rows) {
      const v = featureVector(plainFeatures(r.text, table), table);
      const want = v.some((x) => x !== 0) ? encodeVector(v).code : null;
      if (want === null ? r.code !== null : r.code === null || !want.equals(r.code)) wrong.push(r.anchor_rowid);
      if (want) withCode.push(r.anchor_rowid);
    }
    expect(wrong).toEqual([]);
    const slots = (db.prepare("SELECT rowids FROM vector_bits ORDER BY chunk").pluck().all() as Buffer[]).flatMap((b) =>
      Array.from({ length: b.length / 4 }, (_, i) => b.readUInt32LE(i * 4)),
    );
    expect(slots).toEqual(withCode);
  });
});
