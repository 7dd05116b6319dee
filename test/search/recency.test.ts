/** Recency words order a session's best hits latest first instead of being matched as words. */
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
