/**
 * An embedded bundle keeps its text's digest, not the text (migration 19): re-bundling with the same text keeps
 * the vector, a changed text is embedded again, another embedder gets every text built again from the events, and
 * an index from before converts its bundles in the row conversion's batches and then behaves the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embedders/types.ts";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { refreshVectors } from "../../src/search/vectors.ts";
import { bundleDigest } from "../../src/store/shared/bundle-text.ts";
import { COMPACT_ROWS } from "../../src/store/sqlite/schema.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";
import { withDb } from "../helpers/db-dump.ts";
import { hashingEmbedder } from "./fake-embedder.ts";
import { EXPORTER_SESSION, EXPORTER_TURNS, writePiSession } from "./pi-session.ts";

const SID = EXPORTER_SESSION;
const turns = EXPORTER_TURNS;

/** An embedder that remembers every text it was handed. */
function recording(id: string, dimension: number): Embedder & { texts: string[] } {
  const inner = hashingEmbedder(id, dimension);
  const texts: string[] = [];
  return {
    ...inner,
    texts,
    embed: (batch, as, signal) => {
      texts.push(...batch);
      return inner.embed(batch, as, signal);
    },
  };
}

const dirs: string[] = [];
function indexed(): { store: Store; db: string } {
  const dir = mkdtempSync(join(tmpdir(), "cairn-digest-"));
  dirs.push(dir);
  writePiSession(dir, SID, turns);
  const db = join(dir, "idx.db");
  const store = openStore(db);
  indexPaths({ store, paths: [dir] });
  return { store, db };
}
const rows = (db: string) =>
  withDb(
    db,
    (d) =>
      d.prepare("SELECT anchor_rowid, text, digest, embedded FROM bundles ORDER BY anchor_rowid").all() as Array<{
        anchor_rowid: number;
        text: string;
        digest: Buffer | null;
        embedded: number;
      }>,
  );
const codes = (db: string) =>
  withDb(db, (d) =>
    (
      d.prepare("SELECT anchor_rowid, hex(code) AS code FROM vector_codes ORDER BY anchor_rowid").all() as Array<{
        anchor_rowid: number;
        code: string;
      }>
    ).map((r) => `${r.anchor_rowid} ${r.code}`),
  );
const requeueAll = (db: string) =>
  withDb(db, (d) => d.exec("INSERT OR IGNORE INTO bundle_queue(event_rowid) SELECT anchor_rowid FROM bundles"));
const texts = (store: Store) => store.sessionBundles(SID).bundles.map((b) => `${b.anchor_event_id} ${b.text}`);

let a: { store: Store; db: string };
beforeEach(() => {
  a = indexed();
});
afterEach(() => {
  a.store.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("an embedded bundle's text", () => {
  it("is given to the embedder, then kept only as its digest and built again when asked for", async () => {
    const embedder = recording("fake:a", 16);
    await refreshVectors(a.store, embedder);
    const stored = rows(a.db);
    expect(stored.length).toBeGreaterThan(5);
    expect(stored.every((r) => r.embedded === 1 && r.text === "" && r.digest?.length === 8)).toBe(true);
    const carried = a.store.sessionBundles(SID).bundles;
    expect(carried.map((b) => b.text).sort()).toEqual([...embedder.texts].sort());
    expect(carried.every((b) => b.embedded)).toBe(true);
    expect(stored.map((r) => r.digest!.toString("hex")).sort()).toEqual(
      embedder.texts.map((t) => bundleDigest(t).toString("hex")).sort(),
    );
  });

  it("leaves no emptied pages behind in the bundles table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-digest-"));
    dirs.push(dir);
    const long = (i: number) => `step ${i}: ${"the exporter writes every column of the report as csv ".repeat(20)}`;
    writePiSession(
      dir,
      SID,
      Array.from({ length: 300 }, (_, i) => ({
        prompt: long(i),
        runs: [{ command: `make step${i}`, output: long(i) }],
      })),
    );
    const db = join(dir, "idx.db");
    const store = openStore(db);
    try {
      indexPaths({ store, paths: [dir] });
      await refreshVectors(store, hashingEmbedder("fake:a", 16));
    } finally {
      store.close();
    }
    const pages = withDb(
      db,
      (d) =>
        d
          .prepare(
            "SELECT count(*) AS pages, sum(unused) AS unused, sum(pgsize) AS size FROM dbstat WHERE name = 'bundles'",
          )
          .get() as { pages: number; unused: number; size: number },
    );
    // Some 600 bundles of over a kilobyte each filled some 100 pages while they waited to be embedded.
    expect(rows(db).length).toBeGreaterThan(600);
    expect(pages.unused / pages.size).toBeLessThan(0.5);
  });

  it("bundled again unchanged keeps its vector; a changed one is embedded again with its new text", async () => {
    const embedder = recording("fake:a", 16);
    await refreshVectors(a.store, embedder);
    const before = codes(a.db);
    requeueAll(a.db);
    const same = await refreshVectors(a.store, embedder);
    expect(same).toMatchObject({ embedded: 0, pending: 0 });
    expect(codes(a.db)).toEqual(before);

    // One tool result's output changes under its bundle (as a file read again would give it).
    withDb(a.db, (d) =>
      d.exec(`UPDATE session_events SET text = 'error: rejected again, remote moved'
        WHERE event_type = 'tool_result' AND text LIKE '%[rejected]%'`),
    );
    requeueAll(a.db);
    embedder.texts.length = 0;
    const changed = await refreshVectors(a.store, embedder);
    expect(changed.embedded).toBe(1);
    expect(embedder.texts).toHaveLength(1);
    expect(embedder.texts[0]).toContain("rejected again, remote moved");
    expect(codes(a.db).filter((c) => !before.includes(c))).toHaveLength(1);
    expect(rows(a.db).every((r) => r.text === "")).toBe(true);
  });

  it("built again from an event changed in place, travels without its vector until it is embedded again", async () => {
    await refreshVectors(a.store, hashingEmbedder("fake:a", 16));
    // A call re-stated with another command changes in place, and its result's bundle is not built again.
    withDb(a.db, (d) =>
      d.exec(`UPDATE session_events SET command = 'git push --force origin main', text = 'git push --force origin main'
        WHERE event_type = 'tool_call' AND command = 'git push origin main'`),
    );
    const push = () => a.store.sessionBundles(SID).bundles.filter((b) => b.text.includes("git push"));
    // The call's result and the error it failed with both show it.
    expect(
      push()
        .map((b) => [b.kind, b.embedded, b.code])
        .sort(),
    ).toEqual([
      ["error", false, null],
      ["tool", false, null],
    ]);
    expect(push().every((b) => b.text.includes("--force"))).toBe(true);
    expect(a.store.sessionBundles(SID).bundles.filter((b) => !b.embedded)).toHaveLength(2);
    const b = recording("fake:b", 24);
    await refreshVectors(a.store, b);
    expect(b.texts.filter((t) => t.includes("git push"))).toEqual(push().map((x) => x.text));
    expect(push().map((x) => x.embedded && x.code !== null)).toEqual([true, true]);
  });

  it("another embedder embeds every bundle from its text as a fresh index would", async () => {
    await refreshVectors(a.store, hashingEmbedder("fake:a", 16));
    const b = recording("fake:b", 24);
    const r = await refreshVectors(a.store, b, { batch: 2 });
    expect(r).toMatchObject({ reset: true, pending: 0 });

    const fresh = indexed();
    try {
      const direct = recording("fake:b", 24);
      await refreshVectors(fresh.store, direct);
      expect(b.texts).toEqual(direct.texts);
      expect(codes(a.db)).toEqual(codes(fresh.db));
      expect(texts(a.store)).toEqual(texts(fresh.store));
    } finally {
      fresh.store.close();
    }
    expect(rows(a.db).every((row) => row.text === "")).toBe(true);
  });

  it("an embedder that tells its dimension only when it answers gets the texts too", async () => {
    await refreshVectors(a.store, hashingEmbedder("fake:a", 16));
    const b = Object.assign(recording("fake:c", 12), { dimension: null });
    await refreshVectors(a.store, b);
    const fresh = indexed();
    try {
      const direct = Object.assign(recording("fake:c", 12), { dimension: null });
      await refreshVectors(fresh.store, direct);
      expect(b.texts.filter((t) => t !== "dimension probe")).toEqual(
        direct.texts.filter((t) => t !== "dimension probe"),
      );
      expect(codes(a.db)).toEqual(codes(fresh.db));
    } finally {
      fresh.store.close();
    }
  });
});

describe("an index whose bundles kept their texts (before migration 19)", () => {
  it("answers as before, converts them a batch at a time, and then behaves the same", async () => {
    const embedder = recording("fake:a", 16);
    await refreshVectors(a.store, embedder);
    const want = texts(a.store);
    const wantCodes = codes(a.db);
    a.store.close();
    // Back to the older layout: every bundle's text stored, no digests, the rows to walk recorded.
    withDb(a.db, (d) => {
      const put = d.prepare(
        "UPDATE bundles SET text = ?, digest = NULL WHERE anchor_rowid = (SELECT rowid FROM session_events WHERE event_id = ?)",
      );
      for (const line of want) put.run(line.slice(line.indexOf(" ") + 1), line.slice(0, line.indexOf(" ")));
      d.prepare(
        "INSERT INTO settings(key, value) SELECT ?, json_object('done', 0, 'end', max(rowid)) FROM session_events",
      ).run(COMPACT_ROWS);
    });
    expect(rows(a.db).every((r) => r.digest === null && r.text !== "")).toBe(true);
    a.store = openStore(a.db);
    expect(texts(a.store)).toEqual(want);

    // Unconverted, a bundle is still compared by its text.
    requeueAll(a.db);
    expect((await refreshVectors(a.store, embedder)).embedded).toBe(0);

    const first = a.store.compactRows!({ batchRowids: 8, maxBatches: 1 });
    expect(first.interrupted).toBe(true);
    const half = rows(a.db);
    const anchors = half.map((r) => r.anchor_rowid);
    expect(half.filter((r) => r.anchor_rowid <= 8).every((r) => r.digest !== null && r.text === "")).toBe(true);
    expect(half.filter((r) => r.anchor_rowid > 8).every((r) => r.digest === null && r.text !== "")).toBe(true);
    expect(anchors.some((x) => x <= 8) && anchors.some((x) => x > 8)).toBe(true);
    expect(texts(a.store)).toEqual(want);

    a.store.compactRows!();
    expect(a.store.compactPending!()).toBe(0);
    expect(rows(a.db).every((r) => r.digest !== null && r.text === "")).toBe(true);
    expect(texts(a.store)).toEqual(want);
    expect(codes(a.db)).toEqual(wantCodes);
    requeueAll(a.db);
    expect((await refreshVectors(a.store, embedder)).embedded).toBe(0);
    expect(codes(a.db)).toEqual(wantCodes);
  });

  it("is walked again by the migration, from its first row", () => {
    a.store.close();
    withDb(a.db, (d) => {
      d.exec(`DELETE FROM schema_migrations WHERE version = 19; ALTER TABLE bundles DROP COLUMN digest;
        DELETE FROM settings WHERE key = '${COMPACT_ROWS}'; PRAGMA user_version = 18;`);
    });
    a.store = openStore(a.db);
    const end = withDb(a.db, (d) => d.prepare("SELECT max(rowid) FROM session_events").pluck().get() as number);
    const mark = withDb(
      a.db,
      (d) => d.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(COMPACT_ROWS) as string,
    );
    expect(JSON.parse(mark)).toEqual({ done: 0, end });
  });
});
