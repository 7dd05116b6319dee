/** Recency words order a session's hits latest first instead of being matched as words. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { parseQuery } from "../../src/search/query.ts";
import { search } from "../../src/search/search.ts";
import { openStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/types.ts";
import { writePiSession } from "./pi-session.ts";

const now = new Date("2026-11-24T12:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "cairn-recency-"));
let store: Store;
beforeAll(() => {
  store = openStore(join(dir, "idx.db"));
  const turns = [
    // the first turn says "migration" most often, so BM25 ranks it first
    { prompt: "the migration migration script fails on the migration table", reply: "Looking at the migration." },
    { prompt: "run the linter", reply: "Lint is clean." },
    { prompt: "the migration still fails at the last step", reply: "The migration now passes." },
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

  it("order a session's hits latest first", () => {
    const plain = search(store, "migration", { limit: 10, now }).hits.map((h) => store.getEvent(h.event_id)!);
    const latest = search(store, "migration at the end", { limit: 10, now }).hits.map(
      (h) => store.getEvent(h.event_id)!,
    );
    expect(new Set(latest.map((e) => e.event_id))).toEqual(new Set(plain.map((e) => e.event_id)));
    expect(plain[0]!.text).toContain("migration script");
    expect(latest[0]!.text).toBe("The migration now passes.");
    const ordinals = latest.map((e) => e.ordinal);
    expect([...ordinals].sort((a, b) => b - a)).toEqual(ordinals);
  });
});
