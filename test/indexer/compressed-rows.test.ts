/**
 * Rows whose text and meta are stored compressed (store/shared/text-codec.ts) read as they were written through
 * every path that reads them: whole, by head, by a filter on a command's text, and rewritten by a purge.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { encodeStored } from "../../src/store/shared/text-codec.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { jsonl, piRecords } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-compressed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789";
const CONFIG = Array.from({ length: 60 }, (_, i) => `setting_${i} = "value ${i} for the näive café 🚀"`).join("\n");
const PAD = "a note the text does not show; ".repeat(40);
const SCRIPT = `cat > build.sh <<'EOF'\n${"echo building the wombat module && make -j4 all\n".repeat(20)}EOF\nsh build.sh`;

function writeSession(): string {
  const { rec, call } = piRecords();
  const path = join(dir, "2026-06-05T05-24-28-246Z_compressed-1.jsonl");
  writeFileSync(
    path,
    jsonl(
      { type: "session", version: 3, id: "compressed-1", timestamp: "2026-06-05T05:24:28.246Z", cwd: "/work/app" },
      rec({ role: "user", content: "write the config and build" }),
      ...call("c1", "write", { path: "config.toml", content: `token = "${SECRET}"\n${CONFIG}\n` }, "done"),
      ...call("c2", "bash", { command: SCRIPT }, "built\n".repeat(200)),
      rec({ role: "assistant", content: [{ type: "text", text: "Built." }], stopReason: "stop" }),
    ),
  );
  return path;
}

const stored = (db: string, id: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d
      .prepare("SELECT typeof(text) AS text, typeof(meta) AS meta FROM session_events WHERE event_id = ?")
      .get(id);
  } finally {
    d.close();
  }
};

describe("compressed rows", () => {
  it("read back whole, by head, and by a command filter, and a purge keeps them compressed", () => {
    const db = join(dir, "index.db");
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [writeSession()] });
      const events = store.sessionEvents("compressed-1");
      const write = events.find((e) => e.event_type === "tool_call" && e.tool_name === "write")!;
      expect(write.text).toContain(CONFIG);
      expect(JSON.stringify(write.meta)).toContain(JSON.stringify(CONFIG).slice(1, -1));
      // The call's meta is packed against its text (small: the content is in the text); made long enough to be
      // compressed too, as a call with more input than its text shows would be.
      expect(stored(db, write.event_id)).toEqual({ text: "blob", meta: "text" });
      const raw0 = new Database(db);
      const packed = JSON.parse(
        raw0.prepare("SELECT meta FROM session_events WHERE event_id = ?").pluck().get(write.event_id) as string,
      ) as [Record<string, unknown>, unknown];
      expect(Array.isArray(packed)).toBe(true);
      packed[0]["note"] = PAD;
      raw0
        .prepare("UPDATE session_events SET meta = ? WHERE event_id = ?")
        .run(encodeStored(JSON.stringify(packed)), write.event_id);
      raw0.close();
      write.meta["note"] = PAD;
      expect(stored(db, write.event_id)).toEqual({ text: "blob", meta: "blob" });
      expect(store.getEvent(write.event_id)).toEqual(write);
      const head = store.getEventHead(write.event_id, 25)!;
      expect(head.text).toBe([...write.text].slice(0, 25).join(""));
      expect(head.meta).toEqual(write.meta);
      expect(store.eventHeads!([write.event_id], 25)[0]!.text).toBe(head.text);

      // A command known only by its text (no command column) is found by a filter on that text.
      const command = events.find((e) => e.event_type === "command" && e.text.includes("wombat"))!;
      expect(stored(db, command.event_id)).toMatchObject({ text: "blob" });
      const raw = new Database(db);
      raw.prepare("UPDATE session_events SET command = NULL WHERE event_id = ?").run(command.event_id);
      raw.close();
      const hits = store.searchEvents({ match: null, command: "wombat module", limit: 10 });
      expect(hits.map((h) => h.event.event_id)).toContain(command.event_id);
      expect(store.searchEvents({ match: null, command: "no such script", limit: 10 })).toEqual([]);

      expect(store.redactEvents([write.event_id])).toBeGreaterThan(0);
      const after = store.getEvent(write.event_id)!;
      expect(after.text).not.toContain(SECRET);
      expect(after.text).toContain(CONFIG);
      expect(JSON.stringify(after.meta)).not.toContain(SECRET);
      expect(after.meta["note"]).toBe(PAD);
      expect(stored(db, write.event_id)).toEqual({ text: "blob", meta: "blob" });
    } finally {
      store.close();
    }
  });
});
