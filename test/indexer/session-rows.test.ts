/**
 * A session's events are found through its number (migration 20, store/sqlite/session-rows.ts): the index keyed by
 * the 36-character session id is gone, a session reads in order from `events_sk`, and rows not yet numbered (an
 * index converting) are read by id through the partial index that holds only them, with the same answer. A
 * `session:` search with words reads the matches in the span of rowids its sessions hold.
 */
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { parseQuery } from "../../src/search/query.ts";
import { toEventQuery } from "../../src/search/search.ts";
import { createSessionScopes } from "../../src/store/sqlite/session-rows.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-session-rows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's plan for reading one session's events in order, in the form the scope picks now. */
function planOfSession(db: Database.Database): string {
  const scope = createSessionScopes(db).scope();
  const plan = db
    .prepare(`EXPLAIN QUERY PLAN SELECT event_id FROM session_events e WHERE ${scope.of("e")} ORDER BY ordinal`)
    .all({ sid: "x" }) as Array<{ detail: string }>;
  return plan.map((p) => p.detail).join("\n");
}

describe("a session's events found by its number", () => {
  const db = join(dir, "index.db");

  it("are read in order from the numbered index, with no index of session ids left", () => {
    for (const [from, to] of [
      ["pi/pi-mono__large-session.jsonl", "pi.jsonl"],
      ["claude/codemie__session-624a4a58.jsonl", "claude.jsonl"],
    ] as const) {
      copyFileSync(realFixture(from), join(dir, to));
    }
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [join(dir, "pi.jsonl"), join(dir, "claude.jsonl")] });
    } finally {
      store.close();
    }
    const raw = new Database(db);
    try {
      const indexes = raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all() as string[];
      expect(indexes).toContain("events_sk");
      expect(indexes).not.toContain("events_session");
      expect(raw.prepare("SELECT count(*) FROM session_events WHERE sk IS NULL").pluck().get()).toBe(0);
      const plan = planOfSession(raw);
      expect(plan).toContain("events_sk");
      expect(plan).not.toContain("TEMP B-TREE");
    } finally {
      raw.close();
    }
  });

  it("without a number (an index converting), are read by id and come back the same", () => {
    const read = () => {
      const store = openStore(db, { readonly: true });
      try {
        return store.listSessions({ limit: 10 }).map((s) => {
          const events = store.sessionEvents(s.session_id);
          const middle = events[Math.floor(events.length / 2)]!;
          return { events, links: [store.edgesFrom(middle.event_id), store.edgesTo(middle.event_id)] };
        });
      } finally {
        store.close();
      }
    };
    const want = read();
    expect(want.length).toBe(2);
    expect(want.every((s) => s.events.length > 10)).toBe(true);
    const raw = new Database(db);
    try {
      // Half of every session unnumbered, as a conversion stopped midway leaves it.
      raw.exec("UPDATE session_events SET sk = NULL WHERE rowid % 2 = 0");
      const plan = planOfSession(raw);
      expect(plan).toContain("events_unkeyed");
      expect(plan).toContain("events_sk");
    } finally {
      raw.close();
    }
    expect(read()).toEqual(want);
  });
});

describe("a session: search with words", () => {
  it("finds every match of the session and only its, when another session's rows lie inside its span", () => {
    const db = join(dir, "spans.db");
    const pi = join(dir, "spans-pi.jsonl");
    const claude = join(dir, "spans-claude.jsonl");
    const lines = readFileSync(realFixture("pi/pi-mono__large-session.jsonl"), "utf8").split("\n");
    const half = Math.floor(lines.length / 2);
    const store = openStore(db);
    try {
      // The pi session's first half, then the Claude session, then the rest of the pi session appended.
      writeFileSync(pi, `${lines.slice(0, half).join("\n")}\n`);
      indexPaths({ store, paths: [pi] });
      copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), claude);
      indexPaths({ store, paths: [claude] });
      appendFileSync(pi, lines.slice(half).join("\n"));
      indexPaths({ store, paths: [pi] });
      const sessions = store.listSessions({ limit: 10 });
      expect(sessions.length).toBe(2);
      const raw = new Database(db, { readonly: true });
      const matchesOf = (word: string, session: string) =>
        (
          raw
            .prepare(
              `SELECT e.event_id FROM events_fts f JOIN session_events e ON e.rowid = f.rowid
               WHERE events_fts MATCH ? AND e.session_id = ?`,
            )
            .pluck()
            .all(word, session) as string[]
        ).sort();
      try {
        let found = 0;
        for (const s of sessions)
          for (const word of ["error", "file", "test", "the"]) {
            const want = matchesOf(word, s.session_id);
            for (const prefix of [s.session_id, s.session_id.slice(0, 4)]) {
              const q = toEventQuery(parseQuery(`session:${prefix} ${word}`, new Date()), 10_000);
              const got = store.searchEvents(q).map((h) => h.event.event_id);
              expect(got.sort(), `session:${prefix} ${word}`).toEqual(want);
              found += got.length;
            }
          }
        expect(found).toBeGreaterThan(100);
      } finally {
        raw.close();
      }
    } finally {
      store.close();
    }
  });
});
