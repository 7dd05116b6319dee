/**
 * An index derived by an older normalizer is derived again: every file, changed or not, is read from its start
 * once, and then costs one stat again. Simulated by taking an index back to what version 1 left (no typed tool
 * input, no version on the file's row or in its saved state).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { decodeStored } from "../../src/store/shared/text-codec.ts";
import { metaOf, registerMetaFunctions } from "../../src/store/sqlite/meta-runs.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-topover-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(db: string, root: string) {
  const store = openStore(db);
  try {
    const r = indexPaths({ store, paths: [root] });
    const calls = store
      .sessionEvents(store.listSessions({})[0]!.session_id)
      .filter((e) => e.event_type === "tool_call");
    return { r, typed: calls.filter((e) => e.meta["input"] !== undefined).length, calls: calls.length };
  } finally {
    store.close();
  }
}

describe("the topology version", () => {
  it("an unchanged file indexed by an older normalizer is read again, once", () => {
    const root = join(dir, "t");
    mkdirSync(root);
    copyFileSync(realFixture("pi/pi-mono__large-session.jsonl"), join(root, "s.jsonl"));
    const db = join(dir, "i.db");
    const first = run(db, root);
    expect(first.typed).toBe(first.calls);

    const raw = new Database(db);
    registerMetaFunctions(raw);
    raw.function("plain", (v: unknown) => decodeStored(v as string | Uint8Array));
    raw.exec(`UPDATE source_files SET topology_version = NULL, state = json_remove(plain(state), '$.topologyVersion');
              UPDATE session_events SET meta = json_remove(${metaOf("session_events")}, '$.input'), mr = NULL
                WHERE event_type = 'tool_call';`);
    raw.close();

    const second = run(db, root);
    expect(second.r.rewritten).toBe(1);
    expect(second.typed).toBe(first.calls);
    const third = run(db, root);
    expect(third.r.unchanged).toBe(1);
    expect(third.r.changed).toBe(0);
  });
});
