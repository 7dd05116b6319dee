/**
 * A tool call's input is stored once: the strings of its meta that its text repeats are kept as positions in the
 * text (store/shared/packed-meta.ts). Every read gives back the meta the normalizer made, a purge redacts both, and an
 * index from before (schema 10) is packed in place when opened.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { packMeta, unpackMeta } from "../../src/store/shared/packed-meta.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { jsonl, piRecords } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-packed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = `export function load(path: string) {\n  return JSON.parse(readFileSync(path, "utf8"));\n}\n`;
const NEW = `export function load(path: string): Config {\n  return parseConfig(readFileSync(path, "utf8"));\n}\n`;
const SECRET = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789";

/** A pi session whose assistant edits a file (input repeated in the call's text) and writes one holding a token. */
function writeSession(): string {
  const { rec, call } = piRecords();
  const path = join(dir, "2026-06-05T05-24-28-246Z_packed-1.jsonl");
  writeFileSync(
    path,
    jsonl(
      { type: "session", version: 3, id: "packed-1", timestamp: "2026-06-05T05:24:28.246Z", cwd: "/work/app" },
      rec({ role: "user", content: "make load return a typed config" }),
      ...call("c1", "edit", { path: "src/load.ts", oldText: OLD, newText: NEW }),
      ...call("c2", "write", {
        path: "deploy/token.env",
        content: `TOKEN=${SECRET}\nREGION=eu-west-1 # the default\n`,
      }),
      rec({ role: "assistant", content: [{ type: "text", text: "load returns a Config now." }], stopReason: "stop" }),
    ),
  );
  return path;
}

const calls = (s: Store) => s.sessionEvents("packed-1").filter((e) => e.event_type === "tool_call");
const storedMeta = (db: string) =>
  new Database(db, { readonly: true })
    .prepare("SELECT event_id, meta FROM session_events WHERE event_type = 'tool_call' ORDER BY ordinal")
    .all() as Array<{ event_id: string; meta: string }>;

describe("packed tool-call meta", () => {
  it("round-trips nested strings, arrays and odd keys, and leaves what the text does not hold", () => {
    const text = `path: a.ts\n${OLD}\n${NEW}`;
    const meta = { call_id: "c1", input: { edits: [{ oldText: OLD, newText: NEW }], note: "x".repeat(40) } };
    const odd = JSON.parse(`{"__proto__": ${JSON.stringify(OLD)}, "lone": "${"\\ud800".repeat(40)}"}`);
    const packed = packMeta(text, meta)!;
    expect(packed.length).toBeLessThan(JSON.stringify(meta).length - OLD.length);
    expect(unpackMeta(packed, text)).toEqual(meta);
    expect(JSON.stringify(unpackMeta(packed, text))).toBe(JSON.stringify(meta));
    expect(JSON.stringify(unpackMeta(packMeta(`${text}\ud800`, odd)!, text))).toBe(JSON.stringify(odd));
    expect(packMeta("short", meta)).toBeNull();
    expect(unpackMeta(JSON.stringify(meta), text)).toEqual(meta);
  });

  it("every read gives the normalizer's meta back, and the row keeps the input once", () => {
    const db = join(dir, "fresh.db");
    const store = openStore(db);
    let before: SessionEvent[];
    try {
      indexPaths({ store, paths: [writeSession()] });
      before = calls(store);
      const edit = before.find((e) => e.tool_name === "edit")!;
      expect(edit.text).toContain(OLD);
      expect(JSON.stringify(edit.meta["input"])).toContain(JSON.stringify(OLD));
      expect(store.getEvent(edit.event_id)).toEqual(edit);
      const head = store.getEventHead(edit.event_id, 20)!;
      expect(head.text).toBe(edit.text.slice(0, 20));
      expect(head.meta).toEqual(edit.meta);
      expect(store.findEvents(edit.event_id, 1)).toEqual([edit]);
    } finally {
      store.close();
    }
    const rows = storedMeta(db);
    expect(rows.find((r) => r.event_id === before[0]!.event_id)!.meta).not.toContain("readFileSync");
  });

  it("a purge redacts the call's text and its meta, and packs the meta again", () => {
    const db = join(dir, "purge.db");
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [writeSession()] });
      const write = calls(store).find((e) => e.tool_name === "write")!;
      expect(JSON.stringify(write.meta)).toContain(SECRET);
      expect(store.redactEvents([write.event_id])).toBeGreaterThan(0);
      const after = store.getEvent(write.event_id)!;
      expect(after.text).not.toContain(SECRET);
      expect(JSON.stringify(after.meta)).not.toContain(SECRET);
      expect(JSON.stringify(after.meta)).toContain("REGION=eu-west-1");
    } finally {
      store.close();
    }
  });

  it("an index from before (schema 10) is packed in place when opened, with the same answers", () => {
    const db = join(dir, "old.db");
    const store = openStore(db);
    indexPaths({ store, paths: [writeSession()] });
    const before = calls(store);
    store.close();
    // Back to schema 10: every tool call's meta as plain JSON.
    const raw = new Database(db);
    const put = raw.prepare("UPDATE session_events SET meta = ? WHERE event_id = ?");
    for (const e of before) put.run(JSON.stringify(e.meta), e.event_id);
    raw.exec("DELETE FROM schema_migrations WHERE version = 11");
    raw.pragma("user_version = 10");
    raw.close();
    expect(storedMeta(db).every((r) => r.meta.startsWith("{"))).toBe(true);
    const reopened = openStore(db);
    try {
      expect(calls(reopened)).toEqual(before);
    } finally {
      reopened.close();
    }
    expect(storedMeta(db).some((r) => r.meta.startsWith("["))).toBe(true);
  });
});
