/**
 * Small metas kept in runs (store/sqlite/meta-runs.ts): each run counts the events that point into it, goes with
 * the last of them when files are read again or pruned, and a purged secret leaves no copy in the run.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { packRun, RUN_SLOTS } from "../../src/store/sqlite/meta-runs.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { withDb } from "../helpers/db-dump.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-meta-runs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789";

/** Runs whose count is not the events pointing into them, and events pointing into no run. */
function miscounts(db: string): { wrong: number; missing: number; runs: number } {
  return withDb(db, (d) => ({
    wrong: d
      .prepare(
        `SELECT count(*) FROM (SELECT r.run FROM meta_runs r LEFT JOIN session_events e ON e.mr / ${RUN_SLOTS} = r.run
         GROUP BY r.run HAVING count(e.rowid) <> r.live)`,
      )
      .pluck()
      .get() as number,
    missing: d
      .prepare(
        `SELECT count(*) FROM session_events e WHERE e.mr IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM meta_runs r WHERE r.run = e.mr / ${RUN_SLOTS})`,
      )
      .pluck()
      .get() as number,
    runs: d.prepare("SELECT count(*) FROM meta_runs").pluck().get() as number,
  }));
}

describe("metas kept in runs", () => {
  it("are counted through reads again, cuts and prunes, and leave with the last event", () => {
    const db = join(dir, "runs.db");
    const pi = join(dir, "pi-session.jsonl");
    const claude = join(dir, "claude-session.jsonl");
    copyFileSync(realFixture("pi/pi-mono__large-session.jsonl"), pi);
    copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), claude);
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [dir] });
      const first = miscounts(db);
      expect(first.runs).toBeGreaterThan(10);
      expect(first).toMatchObject({ wrong: 0, missing: 0 });
      const before = store.sessionEvents(store.listSessions({ limit: 10 })[0]!.session_id).map((e) => e.meta);
      expect(before.some((m) => Object.keys(m).length > 0)).toBe(true);

      // Cut short, the file is read again from its start: its events go, and their runs with them.
      const lines = readFileSync(pi, "utf8").split("\n");
      writeFileSync(pi, `${lines.slice(0, Math.floor(lines.length / 3)).join("\n")}\n`);
      indexPaths({ store, paths: [dir] });
      expect(miscounts(db)).toMatchObject({ wrong: 0, missing: 0 });

      // Gone from disk, the events stay until pruned; pruned, no run is left.
      unlinkSync(pi);
      unlinkSync(claude);
      indexPaths({ store, paths: [dir] });
      expect(miscounts(db).runs).toBeGreaterThan(0);
      expect(store.pruneGone().events).toBeGreaterThan(0);
      expect(miscounts(db)).toEqual({ wrong: 0, missing: 0, runs: 0 });
    } finally {
      store.close();
    }
  });

  it("a purge rewrites the run its event's meta is in, leaving no copy of the secret", () => {
    const db = join(dir, "purge.db");
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [realFixture("pi/pi-mono__large-session.jsonl")] });
      // A meta in a run made to hold a secret (as a check's error lines might), beside the metas of other events.
      const { event_id, mr } = withDb(
        db,
        (d) =>
          d
            .prepare(
              "SELECT event_id, mr FROM session_events WHERE mr IS NOT NULL AND event_type = 'assistant_message'",
            )
            .get() as { event_id: string; mr: number },
      );
      const meta = store.getEvent(event_id)!.meta;
      withDb(db, (d) => {
        const run = Math.floor(mr / RUN_SLOTS);
        const slots = d
          .prepare("SELECT mr, event_id FROM session_events WHERE mr / ? = ?")
          .all(RUN_SLOTS, run) as Array<{
          mr: number;
          event_id: string;
        }>;
        const values: string[] = [];
        for (const r of slots) {
          const m = store.getEvent(r.event_id)!.meta;
          values[r.mr % RUN_SLOTS] = JSON.stringify(r.event_id === event_id ? { ...m, note: `token ${SECRET}` } : m);
        }
        d.prepare("UPDATE meta_runs SET data = ? WHERE run = ?").run(packRun(Array.from(values, (v) => v ?? "")), run);
      });
      expect(store.getEvent(event_id)!.meta["note"]).toBe(`token ${SECRET}`);

      expect(store.redactEvents([event_id])).toBeGreaterThan(0);
      const after = store.getEvent(event_id)!;
      expect(JSON.stringify(after.meta)).not.toContain(SECRET);
      expect(after.meta["model"]).toEqual(meta["model"]);
      // No run, decoded, holds it any more.
      const runs = withDb(db, (d) => d.prepare("SELECT data FROM meta_runs").pluck().all() as Buffer[]);
      expect(runs.some((r) => inflateRawSync(r).toString().includes(SECRET))).toBe(false);
      expect(miscounts(db)).toMatchObject({ wrong: 0, missing: 0 });
    } finally {
      store.close();
    }
  });
});
