/** Recency words order a session's best hits latest first instead of being matched as words. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { searchHybrid } from "../../src/search/hybrid.ts";
import { parseQuery } from "../../src/search/query.ts";
import { search } from "../../src/search/search.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { hashingEmbedder } from "./fake-embedder.ts";
import { writePiSession } from "./pi-session.ts";

const now = new Date("2026-11-24T12:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "cairn-recency-"));
let store: Store;
beforeAll(() => {
  store = openStore(join(dir, "idx.db"));
  const turns = [
    { prompt: "the migration fails on the users table", reply: "Looking into it." },
    {
      prompt: "run the linter and then tell me what else is left to do in this change, apart from the migration",
      reply: "Lint is clean.",
    },
    { prompt: "the migration fails on the users table", reply: "Fixed." },
  ];
  indexPaths({ store, paths: [writePiSession(dir, "rec-1", turns)] });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("recency words", () => {
  it("are taken out of the words and mark the query", () => {
    const q = parseQuery("what was still failing at the end", now);
    expect(q.terms.map((t) => t.text)).toEqual(["what", "was", "still", "failing"]);
    expect(q.recent).toBe(true);
    expect(parseQuery("latest migration", now).recent).toBe(true);
    // quoted, or alone, they are words to find
    expect(parseQuery('"at the end"', now).recent).toBeUndefined();
    expect(parseQuery("last", now).terms.map((t) => t.text)).toEqual(["last"]);
  });

  it("order a session's equally relevant hits latest first; weaker ones follow", () => {
    const ask = (q: string) => search(store, q, { limit: 10, now }).hits.map((h) => store.getEvent(h.event_id)!);
    const plain = ask("migration");
    const latest = ask("migration at the end");
    expect(new Set(latest.map((e) => e.event_id))).toEqual(new Set(plain.map((e) => e.event_id)));
    // the two prompts match alike: the later one comes first, and both ahead of the weak match
    const pos = (e: { text: string; ordinal: number }) => latest.findIndex((x) => x.ordinal === e.ordinal);
    const [early, late] = plain
      .filter((e) => e.text === "the migration fails on the users table")
      .sort((a, b) => a.ordinal - b.ordinal);
    expect(pos(late!)).toBeLessThan(pos(early!));
    expect(latest.findIndex((e) => e.text.includes("apart from the migration"))).toBeGreaterThan(pos(early!));
  });
});

describe("recency in hybrid search", () => {
  const hybridDir = mkdtempSync(join(tmpdir(), "cairn-recency-hybrid-"));
  let hybridStore: Store;
  const embedder = hashingEmbedder("hash-recency", 64);
  beforeAll(async () => {
    hybridStore = openStore(join(hybridDir, "idx.db"));
    const turns = [
      { prompt: "the deploy script crashed on the staging database", reply: "Looking into it." },
      ...Array.from({ length: 16 }, (_, i) => ({ prompt: `look at staging log ${i}`, reply: `Read part ${i}.` })),
    ];
    indexPaths({ store: hybridStore, paths: [writePiSession(hybridDir, "rec-2", turns)] });
    await refreshVectors(hybridStore, embedder);
  });
  afterAll(() => {
    hybridStore.close();
    rmSync(hybridDir, { recursive: true, force: true });
  });

  it("keeps the match holding every word on the page: later loose matches do not push it off", async () => {
    const q = "deploy script staging database at the end";
    for (const mode of ["lexical", "hybrid"] as const) {
      const { hits } = await searchHybrid(hybridStore, q, { embedder, mode, limit: 3, now });
      expect(hits.some((h) => hybridStore.getEvent(h.event_id)!.text.includes("deploy script crashed"))).toBe(true);
    }
  });
});
