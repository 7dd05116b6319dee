/**
 * Rows written before texts were stored compressed (migration 14) and before events carried their session's number
 * (migration 17) are converted in batches by `cairn index` (store/sqlite/compact-rows.ts): a conversion stopped
 * after one batch leaves an index of mixed rows that answers as before, and the next run goes on from where it
 * stopped and ends with the rows a fresh index has.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { decodeStored } from "../../src/store/shared/text-codec.ts";
import { COMPACT_ROWS } from "../../src/store/sqlite/schema.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { cairn } from "../helpers/cli.ts";
import { withDb } from "../helpers/db-dump.ts";
import { clientsHome, indexAnswers } from "../helpers/index-answers.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const root = mkdtempSync(join(tmpdir(), "cairn-compact-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const env = { HOME: home, XDG_DATA_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config"), TZ: "UTC" };
const real = realFixturesDir();
const fresh = join(root, "fresh.db");
const old = join(root, "old.db");
const stopped = join(root, "stopped.db");
const watched = join(root, "watched.db");

const blobs = (db: string) =>
  withDb(
    db,
    (d) =>
      d
        .prepare("SELECT count(*) FROM session_events WHERE typeof(text) = 'blob' OR typeof(meta) = 'blob'")
        .pluck()
        .get() as number,
  );
const unnumbered = (db: string) =>
  withDb(db, (d) => d.prepare("SELECT count(*) FROM session_events WHERE sk IS NULL").pluck().get() as number);

/** Searches filtered by project and by session, which the time indexes answer by the session's number. */
function filteredAnswers(db: string): Record<string, string> {
  const { projects, sessions } = withDb(fresh, (d) => ({
    projects: d
      .prepare("SELECT DISTINCT project FROM sessions WHERE project IS NOT NULL ORDER BY 1 LIMIT 3")
      .pluck()
      .all(),
    sessions: d.prepare("SELECT substr(session_id, 1, 6) FROM sessions ORDER BY updated_at DESC LIMIT 3").pluck().all(),
  }));
  expect(projects.length).toBeGreaterThan(1);
  const queries = [
    ...projects.flatMap((p) => [`project:${p}`, `project:${p} kind:tool_call`, `project:${p} error`]),
    ...sessions.flatMap((s) => [`session:${s}`, `session:${s} kind:tool_result`]),
  ];
  const out: Record<string, string> = {};
  for (const q of queries) {
    const r = cairn(["search", q, "--json", "--limit", "40", "--mode", "lexical", "--db", db], { env });
    // 1: nothing found
    expect([0, 1], r.stderr).toContain(r.code);
    out[q] = `${r.code} ${r.stdout}`;
  }
  expect(Object.values(out).filter((v) => v.includes('"event_id"')).length).toBeGreaterThan(queries.length / 2);
  return out;
}

const pending = (db: string) =>
  withDb(
    db,
    (d) => d.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(COMPACT_ROWS) as string | undefined,
  );

beforeAll(() => {
  mkdirSync(home);
  clientsHome(home);
  for (const roots of [[], [real]]) {
    const r = cairn(["index", "--db", fresh, ...roots], { env });
    expect(r.code, r.stderr).toBe(0);
  }
  // The index as an older release left it, once migrated: every row plain, and the rows to convert recorded.
  copyFileSync(fresh, old);
  withDb(old, (d) => {
    d.function("plain", (v: unknown) => decodeStored(v as string | Uint8Array | null));
    d.exec(`UPDATE session_events SET text = plain(text), meta = plain(meta)
      WHERE typeof(text) = 'blob' OR typeof(meta) = 'blob'`);
    d.exec("UPDATE session_events SET sk = NULL");
    d.prepare(
      "INSERT INTO settings(key, value) SELECT ?, json_object('done', 0, 'end', max(rowid)) FROM session_events",
    ).run(COMPACT_ROWS);
    d.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  });
  copyFileSync(old, stopped);
  copyFileSync(old, watched);
}, 300_000);

describe("converting an index's rows to the compressed layout", () => {
  it("stops after a batch with mixed rows that answer as before, then resumes and ends as a fresh index", () => {
    const where = { home, real, env };
    const want = indexAnswers(fresh, where);
    expect(blobs(fresh)).toBeGreaterThan(0);
    expect(blobs(old)).toBe(0);
    expect(unnumbered(old)).toBeGreaterThan(0);
    expect(indexAnswers(old, where)).toEqual(want);
    const filtered = filteredAnswers(fresh);
    expect(filteredAnswers(old)).toEqual(filtered);

    const store = openStore(old);
    try {
      const first = store.compactRows!({ batchRowids: 500, maxBatches: 1 });
      expect(first.interrupted).toBe(true);
      expect(first.compressed).toBeGreaterThan(0);
      expect(store.compactPending!()).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    expect(JSON.parse(pending(old)!)).toMatchObject({ done: 500 });
    const partly = blobs(old);
    expect(partly).toBeGreaterThan(0);
    expect(partly).toBeLessThan(blobs(fresh));
    expect(unnumbered(old)).toBeGreaterThan(0);
    expect(indexAnswers(old, where)).toEqual(want);
    expect(filteredAnswers(old)).toEqual(filtered);

    // The next `cairn index` (nothing new to read) goes on from there.
    const r = cairn(["index", "--db", old, real], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(pending(old)).toBeUndefined();
    expect(blobs(old)).toBe(blobs(fresh));
    expect(unnumbered(old)).toBe(0);
    expect(indexAnswers(old, where)).toEqual(want);
    expect(filteredAnswers(old)).toEqual(filtered);
  }, 300_000);

  it("is done by watch mode too, between its runs", async () => {
    const app = createCairn({ db: watched, mode: "write", env });
    const stop = new AbortController();
    try {
      const watching = app.watch({ roots: [real], signal: stop.signal });
      for (const start = Date.now(); pending(watched) !== undefined; ) {
        if (Date.now() - start > 120_000) throw new Error("watch mode never converted the rows");
        await new Promise((r) => setTimeout(r, 50));
      }
      stop.abort();
      await watching;
    } finally {
      app.close();
    }
    expect(unnumbered(watched)).toBe(0);
    expect(blobs(watched)).toBe(blobs(fresh));
  }, 300_000);

  it("stops at Ctrl-C between batches (the signal is seen), keeping what it converted", async () => {
    const app = createCairn({ db: stopped, mode: "write", env });
    const stop = new AbortController();
    const seen: number[] = [];
    try {
      const run = await app.index({
        roots: [real],
        embed: false,
        signal: stop.signal,
        onCompactProgress: (p) => {
          seen.push(p.done);
          // Ctrl-C comes as an event-loop task, as a signal's handler does: a conversion that never gives the
          // loop a turn would not see it until the end.
          if (seen.length === 1) setImmediate(() => stop.abort());
        },
      });
      expect(run.interrupted).toBe(true);
    } finally {
      app.close();
    }
    expect(seen).toHaveLength(1);
    const mark = JSON.parse(pending(stopped)!) as { done: number; end: number };
    expect(mark.done).toBeGreaterThan(0);
    expect(mark.done).toBeLessThan(mark.end);
    expect(blobs(stopped)).toBeGreaterThan(0);
  }, 300_000);
});
