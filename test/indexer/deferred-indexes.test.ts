/**
 * A first index builds the read-only indexes of `session_events` once at its end (store/sqlite/deferred.ts):
 * another handle searching meanwhile gets the same answers without them, the writing handle builds them before it
 * reads or when it closes, a run that never got there leaves them to the next group, and an index that already
 * holds events keeps them while it grows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { search } from "../../src/search/search.ts";
import { DEFERRED_INDEXES } from "../../src/store/sqlite/deferred.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { ReadonlyStore } from "../../src/store/types.ts";
import { writePiSession } from "../search/pi-session.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-deferred-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turns = (word: string) => [
  { prompt: `fix the ${word} loader`, runs: [{ command: `npm test -- ${word}`, output: "1 failed", error: true }] },
  { prompt: `and the ${word} parser`, runs: [{ command: "git status", output: "clean" }], reply: `${word} done` },
];
const first = writePiSession(dir, "deferred-1", turns("config"));
const second = writePiSession(dir, "deferred-2", turns("schema"));

/** The indexes of session_events present, and whether some are waiting to be built. */
function shape(db: string): { indexes: string[]; pending: boolean } {
  const raw = new Database(db, { readonly: true });
  try {
    const indexes = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'session_events' ORDER BY name")
      .pluck()
      .all() as string[];
    const pending = raw.prepare("SELECT 1 FROM settings WHERE key = 'deferred_indexes'").get() !== undefined;
    return { indexes: indexes.filter((n) => (DEFERRED_INDEXES as readonly string[]).includes(n)), pending };
  } finally {
    raw.close();
  }
}
const ALL = [...DEFERRED_INDEXES].sort();
const QUERIES = ["tool:bash", "kind:tool_result", "loader", "kind:user_message", "parser", "since:2026-06-01"];
const answers = (s: ReadonlyStore) =>
  QUERIES.map((q) => search(s, q, { limit: 50, now: new Date("2027-01-01") }).hits.map((h) => h.event_id));

describe("indexes deferred on a first index", () => {
  it("are left out while a first index writes; other handles answer the same; the first read builds them", () => {
    const db = join(dir, "fresh.db");
    const store = openStore(db);
    indexPaths({ store, paths: [first] });
    expect(shape(db)).toEqual({ indexes: [], pending: true });
    const reader = openStore(db, { readonly: true });
    const without = answers(reader);
    expect(without.every((ids) => ids.length > 0)).toBe(true);
    expect(store.counts().events).toBeGreaterThan(0);
    expect(shape(db)).toEqual({ indexes: ALL, pending: false });
    expect(answers(reader)).toEqual(without);
    expect(answers(store)).toEqual(without);
    reader.close();
    store.close();
  });

  it("are built when the handle closes, and kept while an index that has events grows", () => {
    const db = join(dir, "grow.db");
    const store = openStore(db);
    indexPaths({ store, paths: [first] });
    store.close();
    expect(shape(db)).toEqual({ indexes: ALL, pending: false });
    const again = openStore(db);
    again.beginGroup();
    expect(shape(db).indexes).toEqual(ALL);
    again.commitGroup();
    indexPaths({ store: again, paths: [second] });
    expect(shape(db)).toEqual({ indexes: ALL, pending: false });
    again.close();
  });

  it("left out by a run that stopped before building them, are built by the next group", () => {
    const db = join(dir, "stopped.db");
    const store = openStore(db);
    indexPaths({ store, paths: [first] });
    store.close();
    const expected = answers(openStore(db, { readonly: true }));
    // What a run killed after its first commits leaves: the indexes dropped, their SQL kept.
    const raw = new Database(db);
    const sql = raw
      .prepare(`SELECT sql FROM sqlite_master WHERE name IN (${ALL.map((n) => `'${n}'`).join(", ")}) ORDER BY name`)
      .pluck()
      .all() as string[];
    raw.prepare("INSERT INTO settings(key, value) VALUES ('deferred_indexes', ?)").run(JSON.stringify(sql));
    for (const n of ALL) raw.exec(`DROP INDEX ${n}`);
    raw.close();
    const next = openStore(db);
    indexPaths({ store: next, paths: [first, second] });
    expect(shape(db)).toEqual({ indexes: ALL, pending: false });
    next.close();
    const reader = openStore(db, { readonly: true });
    expect(answers(reader).map((ids) => ids.length)).toEqual(expected.map((ids) => ids.length * 2));
    reader.close();
  });
});
