/**
 * An event read from its session's file keeps '' as its path in the SQLite store (store/sqlite/write.ts, migration
 * 15) and reads back with the session's through every read. A session that changes file leaves its earlier rows
 * where they were read; a moved file carries its rows along; a deleted file takes its rows with it; and an index
 * of the older layout converts to '' in `compactRows` with the same answers.
 */
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { parseQuery } from "../../src/search/query.ts";
import { toEventQuery } from "../../src/search/search.ts";
import { COMPACT_ROWS } from "../../src/store/sqlite/schema.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { withDb } from "../helpers/db-dump.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-own-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURES = ["pi/pi-mono__large-session.jsonl", "pi/agent-history__real_sessions_pi_session-01.jsonl"];

/** A folder of the two pi transcripts, indexed into its own database. */
function indexed(name: string): { root: string; db: string; files: string[] } {
  const root = join(dir, name, "root");
  mkdirSync(root, { recursive: true });
  const files = FIXTURES.map((f, i) => {
    const to = join(root, `s${i}.jsonl`);
    copyFileSync(realFixture(f), to);
    return to;
  });
  const db = join(dir, name, "c.db");
  withStore(db, (store) => indexPaths({ store, paths: [root], parallel: false }));
  return { root, db, files };
}

function withStore<T>(db: string, fn: (s: Store) => T): T {
  const store = openStore(db);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** How the rows keep their paths: '' or each distinct path, with counts. */
const storedPaths = (db: string) =>
  Object.fromEntries(
    withDb(db, (d) =>
      d.prepare("SELECT source_file, count(*) FROM session_events GROUP BY source_file").raw(true).all(),
    ) as Array<[string, number]>,
  );

/** Usage rows by the path they were read from. */
const usagePaths = (db: string) =>
  Object.fromEntries(
    withDb(db, (d) =>
      d.prepare("SELECT source_file, count(*) FROM usage_calls GROUP BY source_file").raw(true).all(),
    ) as Array<[string, number]>,
  );

/** Everything the store reads events through, keyed so two indexes can be compared. */
function answers(store: Store): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of store.listSessions({ limit: 100 })) {
    const events = store.sessionEvents(s.session_id);
    out[`${s.session_id} events`] = events;
    out[`${s.session_id} some`] = store.sessionEvents(s.session_id, { from: events.at(-1)!.ordinal });
    const [a, b] = [events[0]!.event_id, events.at(-1)!.event_id];
    out[`${s.session_id} by id`] = [
      store.getEvent(a),
      store.getEventHead(b, 10),
      store.findEvents(a.slice(0, -2), 5),
      store.eventHeads!([a, b], 10),
    ];
  }
  // Ranked, filter-only newest first, and a project's sessions walked one by one.
  for (const q of ["test", "error", "kind:tool_call", "project:pi-mono", "tool:bash"])
    out[`search ${q}`] = store.searchEvents(toEventQuery(parseQuery(q, new Date()), 30));
  out["queue"] = store.bundleQueue(50).map((q) => q.event);
  return out;
}

/** Every event an answer holds, with the path it reads. */
function eventsIn(value: unknown, out: SessionEvent[] = []): SessionEvent[] {
  if (Array.isArray(value)) for (const v of value) eventsIn(v, out);
  else if (value && typeof value === "object") {
    if ("source_file" in value && "event_id" in value) out.push(value as SessionEvent);
    else for (const v of Object.values(value)) eventsIn(v, out);
  }
  return out;
}

let base: ReturnType<typeof indexed>;
beforeAll(() => {
  base = indexed("base");
}, 120_000);

describe("an event's path kept once, by its session", () => {
  it("is stored as '' and read back as the session's file by every read", () => {
    expect(storedPaths(base.db)).toEqual({ "": expect.any(Number) });
    withStore(base.db, (store) => {
      const files = new Map(store.listSessions({ limit: 100 }).map((s) => [s.session_id, s.source_file]));
      expect(new Set(files.values())).toEqual(new Set(base.files));
      const read = answers(store);
      const events = eventsIn(read);
      expect(events.length).toBeGreaterThan(100);
      for (const key of Object.keys(read)) expect(eventsIn(read[key]).length, key).toBeGreaterThan(0);
      for (const e of events) expect(e.source_file).toBe(files.get(e.session_id));
    });
  });

  it("a session whose file changes keeps its earlier rows' path", () => {
    const { db, files } = indexed("changed");
    const session = withStore(db, (s) => s.listSessions({ limit: 100 }).find((x) => x.source_file === files[0]))!;
    withDb(db, (d) =>
      d.prepare("UPDATE sessions SET source_file = ? WHERE session_id = ?").run("/elsewhere.jsonl", session.session_id),
    );
    withStore(db, (store) => {
      expect(store.getSession(session.session_id)!.source_file).toBe("/elsewhere.jsonl");
      const events = store.sessionEvents(session.session_id);
      expect(events.length).toBeGreaterThan(100);
      for (const e of events) expect(e.source_file).toBe(files[0]);
      for (const e of eventsIn(answers(store)))
        expect(e.source_file).toBe(e.session_id === session.session_id ? files[0] : files[1]);
    });
    expect(storedPaths(db)).toEqual({ "": expect.any(Number), [files[0]!]: expect.any(Number) });
  });

  it("a moved file carries its rows to the new path, kept as '' again", () => {
    const { root, db, files } = indexed("moved");
    // Moved into another folder under its own name (a reader may take a session's id from the name).
    mkdirSync(join(root, "archive"));
    const to = join(root, "archive", "s0.jsonl");
    renameSync(files[0]!, to);
    const usage = usagePaths(db)[files[0]!];
    expect(usage).toBeGreaterThan(10);
    const run = withStore(db, (store) => indexPaths({ store, paths: [root], parallel: false }));
    expect(run.moved).toBe(1);
    expect(storedPaths(db)).toEqual({ "": expect.any(Number) });
    expect(usagePaths(db)).toEqual({ [to]: usage, [files[1]!]: expect.any(Number) });
    withStore(db, (store) => {
      const sessions = store.listSessions({ limit: 100 });
      expect(sessions.map((s) => s.source_file).sort()).toEqual([files[1], to].sort());
      const events = eventsIn(answers(store));
      expect(events.some((e) => e.source_file === to)).toBe(true);
      for (const e of events) expect(e.source_file).not.toBe(files[0]);
      const want = withStore(base.db, (b) => moved(moved(answers(b), base.files[0]!, to), base.files[1]!, files[1]!));
      expect(answers(store)).toEqual(want);
    });
  });

  it("a deleted file, once pruned, leaves none of its rows", () => {
    const { root, db, files } = indexed("deleted");
    const before = withStore(db, (s) => s.counts().events);
    unlinkSync(files[0]!);
    withStore(db, (store) => {
      indexPaths({ store, paths: [root], parallel: false });
      const pruned = store.pruneGone();
      expect(pruned.events).toBeGreaterThan(100);
      expect(Object.keys(usagePaths(db))).toEqual([files[1]]);
      const kept = store.listSessions({ limit: 100 });
      expect(kept.map((s) => s.source_file)).toEqual([files[1]]);
      expect(store.counts().events).toBe(before - pruned.events);
      expect(store.counts().events).toBe(store.sessionEvents(kept[0]!.session_id).length);
    });
  });

  it("an index of the older layout converts its rows to '' and answers the same", () => {
    const { db, files } = indexed("old");
    const want = withStore(db, answers);
    withDb(db, (d) => {
      d.exec(`UPDATE session_events SET source_file =
        (SELECT s.source_file FROM sessions s WHERE s.session_id = session_events.session_id)`);
      d.prepare(
        "INSERT OR REPLACE INTO settings(key, value) SELECT ?, json_object('done', 0, 'end', max(rowid)) FROM session_events",
      ).run(COMPACT_ROWS);
    });
    expect(Object.keys(storedPaths(db)).sort()).toEqual([...files].sort());
    withStore(db, (store) => {
      expect(answers(store)).toEqual(want);
      const first = store.compactRows!({ batchRowids: 300, maxBatches: 1 });
      expect(first.interrupted).toBe(true);
      expect(Object.keys(storedPaths(db)).sort()).toEqual(["", ...files].sort());
      expect(answers(store)).toEqual(want);
      expect(store.compactRows!({ batchRowids: 300 }).interrupted).toBe(false);
      expect(store.compactPending!()).toBe(0);
      expect(answers(store)).toEqual(want);
    });
    expect(storedPaths(db)).toEqual({ "": expect.any(Number) });
  });
});

/** Answers with one file's path spelled as another's. */
function moved<T>(value: T, from: string, to: string): T {
  return JSON.parse(
    JSON.stringify(value).split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1)),
  );
}
