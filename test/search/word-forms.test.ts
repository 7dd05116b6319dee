/**
 * Word forms: a bare word also finds the other forms of the word through the stemmed column, while quoted words,
 * identifiers and exclusions stay exact; an index from before the stemmed column is rebuilt by its migration.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { search } from "../../src/search/search.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { writePiSession } from "./pi-session.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-forms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = writePiSession(dir, "forms-1", [
  {
    prompt: "add parseConfig to the loader",
    runs: [{ command: "git commit -m 'loader: parseConfig'", output: "[main 1a2b3c] loader: parseConfig" }],
    reply: "The loader change is in; tests are passing.",
  },
  { prompt: "the parseConfigs helper in utils fails", reply: "Fixed the failing helper." },
]);

function texts(store: Store, q: string): string[] {
  return search(store, q, { limit: 50 }).hits.map((h) => store.getEvent(h.event_id)!.text);
}

describe("word forms", () => {
  it("a bare word finds its other forms; quotes, identifiers and exclusions stay exact", () => {
    const store = openStore(join(dir, "fresh.db"));
    try {
      indexPaths({ store, paths: [file] });
      expect(texts(store, "committed").some((t) => t.includes("git commit"))).toBe(true);
      expect(texts(store, '"committed"')).toEqual([]);
      expect(texts(store, "failed").some((t) => t.includes("failing helper"))).toBe(true);
      expect(texts(store, "passed").some((t) => t.includes("tests are passing"))).toBe(true);
      // an identifier matches as written: parseConfig does not find parseConfigs, nor the other way round
      expect(texts(store, "parseConfig").every((t) => /parseConfig(?!s)/.test(t))).toBe(true);
      expect(texts(store, "parseConfigs").every((t) => t.includes("parseConfigs"))).toBe(true);
      // an exclusion removes the word as written, not its relatives
      const kept = texts(store, "loader -commits");
      expect(kept.some((t) => t.includes("git commit"))).toBe(true);
    } finally {
      store.close();
    }
  });

  it("an index from before the stemmed column is rebuilt with it when opened", () => {
    const path = join(dir, "old.db");
    const store = openStore(path);
    indexPaths({ store, paths: [file] });
    store.close();
    // Take the index back to schema 4: the FTS table without stems, holding nothing a stem could match.
    const raw = new Database(path);
    sqliteVec.load(raw);
    raw.exec(`DROP TABLE events_fts;
      CREATE VIRTUAL TABLE events_fts USING fts5(text, idents, facets, content='', contentless_delete=1);
      DELETE FROM schema_migrations WHERE version = 5;`);
    raw.pragma("user_version = 4");
    raw.close();
    const reopened = openStore(path);
    try {
      expect(texts(reopened, "committed").some((t) => t.includes("git commit"))).toBe(true);
      expect(texts(reopened, "parseConfig").length).toBeGreaterThan(0);
    } finally {
      reopened.close();
    }
  });
});
