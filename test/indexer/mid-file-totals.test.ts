/**
 * A commit in the middle of a file (a group that filled up) brings the totals of the sessions written so far up to
 * date in the same transaction: a run killed after it leaves no session whose counts miss events it kept, even when
 * the next run finds the file unchanged and never touches that session again.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { indexFileSteps } from "../../src/indexer/index-file.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("a mid-file commit leaves the session's totals matching the events committed", () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-mid-file-"));
  const file = join(dir, "s.jsonl");
  copyFileSync(join(realFixturesDir(), "pi", "pi-mono__large-session.jsonl"), file);
  const db = join(dir, "idx.db");
  const store = openStore(db);
  store.beginGroup();
  let committed = false;
  const steps = indexFileSteps(store, file, {
    chunkBytes: 64 * 1024,
    onBytes(_bytes, settle) {
      if (committed) return;
      // what the indexer does when its group is full mid-file
      settle();
      store.commitGroup();
      committed = true;
    },
  });
  while (!committed) steps.next();
  // killed here: the generator never finishes, nothing after the commit is kept
  store.beginGroup();
  store.rollbackGroup();
  store.close();

  const after = openStore(db);
  try {
    const [session] = after.listSessions({});
    expect(session).toBeDefined();
    const events = after.sessionEvents(session!.session_id).length;
    expect(events).toBeGreaterThan(0);
    expect(session!.event_count).toBe(events);
  } finally {
    after.close();
  }
});
