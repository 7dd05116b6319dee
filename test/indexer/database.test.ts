/**
 * A transcript kept in an SQLite database, as OpenCode keeps it while it runs: in WAL mode, with new rows sitting
 * in the `-wal` file until a checkpoint. The indexer must see them (the main file does not change), read the
 * database without writing to it, keep event ids across re-reads, and report a database it cannot read.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexFile } from "../../src/indexer/indexer.ts";
import type { Store } from "../../src/store/types.ts";
import { withStore } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test/fixtures/clients/opencode/1.18.33/home/.local/share/opencode/opencode.db");
const dir = mkdtempSync(join(tmpdir(), "cairn-dbsrc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const texts = (s: Store, sessionId: string) =>
  s.sessionEvents(sessionId).map((e) => ({ id: e.event_id, type: e.event_type, text: e.text }));

describe("a transcript in an SQLite database", () => {
  it("rows that are only in the -wal file are indexed; earlier events keep their ids", () => {
    const d = join(dir, "wal");
    mkdirSync(d);
    const path = join(d, "opencode.db");
    copyFileSync(FIXTURE, path);
    // The agent's own connection: WAL mode, no automatic checkpoint, held open so the log stays a log.
    const agent = new Database(path);
    agent.pragma("journal_mode = WAL");
    agent.pragma("wal_autocheckpoint = 0");
    const main = (agent.prepare("SELECT id FROM session WHERE parent_id IS NULL").get() as { id: string }).id;
    const store = join(d, "cairn.db");
    expect(withStore(store, (s) => indexFile(s, path)).outcome).toBe("new");
    const before = withStore(store, (s) => texts(s, main));

    // A new assistant reply: a real text part of the last assistant message, copied under a new id and text.
    const last = agent
      .prepare(
        `SELECT p.* FROM part p JOIN message m ON m.id = p.message_id
         WHERE p.session_id = ? AND json_extract(m.data, '$.role') = 'assistant'
           AND json_extract(p.data, '$.type') = 'text' ORDER BY p.id DESC LIMIT 1`,
      )
      .get(main) as Record<string, unknown>;
    const mainSize = readFileSync(path).length;
    agent
      .prepare(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(
        `${String(last["id"])}zz`,
        last["message_id"],
        main,
        Number(last["time_created"]) + 1,
        Number(last["time_updated"]) + 1,
        JSON.stringify({ type: "text", text: "A reply written after the first index." }),
      );
    expect(readFileSync(path).length).toBe(mainSize);

    const second = withStore(store, (s) => indexFile(s, path));
    expect(second.outcome).toBe("rewritten");
    const after = withStore(store, (s) => texts(s, main));
    expect(after.map((e) => e.text)).toContain("A reply written after the first index.");
    expect(after.filter((e) => before.some((b) => b.id === e.id))).toHaveLength(before.length);
    expect(withStore(store, (s) => indexFile(s, path)).outcome).toBe("unchanged");
    agent.close();
  });

  it("a database no reader knows is reported once, and one that cannot be opened is a problem, not a crash", () => {
    const d = join(dir, "other");
    mkdirSync(d);
    const other = join(d, "opencode.db");
    const db = new Database(other);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi');");
    db.close();
    const store = join(d, "cairn.db");
    const res = withStore(store, (s) => indexFile(s, other));
    expect(res.outcome).toBe("unrecognized");
    expect(res.problems).toBe(1);

    const broken = join(d, "kilo.db");
    writeFileSync(broken, Buffer.concat([Buffer.from("SQLite format 3\0", "latin1"), Buffer.alloc(100, 7)]));
    const bad = withStore(store, (s) => indexFile(s, broken));
    expect(bad.problems).toBeGreaterThan(0);
  });
});
