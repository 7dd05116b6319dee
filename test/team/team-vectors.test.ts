/**
 * Semantic search on the team index, against a real PostgreSQL server: `cairn index` builds and embeds bundles
 * there as it does in SQLite, hybrid and vector searches rank as SQLite's do on the same transcripts, `cairn push`
 * carries bundles and vector codes, and pgvector's path runs where the server can create the extension (skipped
 * with the reason printed where it cannot). Everything runs through the built CLI.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { type PgCluster, pgSkipReason, startPg } from "../helpers/postgres.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const skip = pgSkipReason();
if (skip) console.warn(`team index vector tests skipped: ${skip}`);

function ok(r: { code: number | null; stdout: string; stderr: string }): string {
  if (r.code !== 0) throw new Error(`cairn exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const QUERIES = [
  "fix the failing test",
  "why did the build break",
  "shim binary",
  "kind:error permission denied",
  "project:pi-mono editor keybindings",
  "provider:codex apply a patch",
];

describe.skipIf(skip !== null)(
  "team index vectors on PostgreSQL",
  () => {
    let pg: PgCluster;
    let dir: string;
    let sqlite: string;
    const home = () => ({ HOME: join(dir, "home"), CAIRN_MACHINE: "laptop-a" });
    type Hit = { event_id: string; signals?: Array<{ source: string; rank: number; score: number | null }> };
    /** The hits, none (exit 1) when nothing clears the floor. */
    const search = (db: string, mode: string, query: string) => {
      const r = cairn(["search", "--json", "--mode", mode, "--limit", "20", query, "--db", db], { env: home() });
      return JSON.parse(r.code === 1 ? r.stdout : ok(r)).hits as Hit[];
    };
    const hits = (db: string, mode: string, query: string) => search(db, mode, query).map((h) => h.event_id);
    const meaning = (h: Hit) => h.signals?.find((s) => s.source === "meaning") ?? null;

    beforeAll(async () => {
      pg = await startPg();
      dir = mkdtempSync(join(tmpdir(), "cairn-team-vec-"));
      cpSync(realFixturesDir(), join(dir, "t"), { recursive: true });
      sqlite = join(dir, "cairn.db");
      ok(cairn(["index", "--json", "--db", sqlite, join(dir, "t")], { env: home() }));
    }, 300_000);

    afterAll(() => {
      pg?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("index embeds into PostgreSQL, and vector searches and hybrid's meaning half answer as SQLite's do", () => {
      const url = pg.createDatabase("indexed");
      ok(cairn(["index", "--json", "--db", url, join(dir, "t")], { env: home() }));
      const status = (db: string) =>
        JSON.parse(ok(cairn(["embed", "--status", "--json", "--db", db], { env: home() }))) as {
          bundles: number;
          embedded: number;
          queued: number;
          embedder: string;
        };
      const [p, s] = [status(url), status(sqlite)];
      expect(p.bundles).toBeGreaterThan(100);
      expect(p).toMatchObject({ bundles: s.bundles, embedded: s.embedded, queued: 0, embedder: s.embedder });
      let compared = 0;
      let withMeaning = 0;
      let found = 0;
      for (const query of QUERIES) {
        // Meaning alone answers what clears the embedder's floor, the same events from both
        const ids = hits(url, "vector", query);
        if (ids.length > 0) found++;
        expect(ids, query).toEqual(hits(sqlite, "vector", query));
        // Hybrid fuses words and meaning: the word rankers differ (ts_rank there, BM25 here), so the fused order
        // may too, but every event both show has the same similarity, and the nearest fifty (found by meaning
        // alone, before word matches are judged by their vectors) hold the same ranks.
        const [p, s] = [search(url, "hybrid", query), search(sqlite, "hybrid", query)];
        const there = new Map(s.map((h) => [h.event_id, meaning(h)]));
        const both = p.filter((h) => there.has(h.event_id));
        compared += both.length;
        for (const h of both) {
          const [a, b] = [meaning(h), there.get(h.event_id) ?? null];
          expect(a?.score, `${query} ${h.event_id}`).toBe(b?.score);
          if (a && b && a.rank <= 50 && b.rank <= 50) expect(a.rank, `${query} ${h.event_id}`).toBe(b.rank);
        }
        // A hit shows meaning where its similarity clears the embedder's floor: not in every query's first page.
        if (p.some((h) => meaning(h) !== null)) withMeaning++;
      }
      expect(compared).toBeGreaterThan(20);
      expect(found).toBeGreaterThanOrEqual(QUERIES.length - 1);
      expect(withMeaning).toBeGreaterThan(0);
      // A search that narrows by kind ranks only that kind's bundles.
      const errors = JSON.parse(
        ok(cairn(["search", "--json", "--mode", "vector", "kind:error", "build failed", "--db", url], { env: home() })),
      ).hits as Array<{ event_type: string }>;
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((h) => h.event_type === "error")).toBe(true);
    }, 300_000);

    it("push carries bundles and vector codes, so the team answers without embedding again", () => {
      const url = pg.createDatabase("pushed");
      const first = JSON.parse(ok(cairn(["push", "--json", "--db", sqlite, "--to", url], { env: home() })));
      expect(first.vectors).toBeGreaterThan(100);
      expect(Number(pg.psql("SELECT count(*) FROM vector_codes", "pushed"))).toBe(first.vectors);
      expect(pg.psql("SELECT count(*) FROM bundle_queue", "pushed")).toBe("0");
      for (const query of QUERIES.slice(0, 3))
        expect(hits(url, "vector", query), query).toEqual(hits(sqlite, "vector", query));
      const again = JSON.parse(ok(cairn(["push", "--json", "--db", sqlite, "--to", url], { env: home() })));
      expect(again).toMatchObject({ sent: 0, bundles: 0, vectors: 0 });
      // --redact sends a bundle whose text it changed without its vector: the team embeds the redacted text.
      const red = pg.createDatabase("pushed_redacted");
      const r = JSON.parse(ok(cairn(["push", "--json", "--redact", "--db", sqlite, "--to", red], { env: home() })));
      expect(r.bundles).toBe(first.bundles);
      const texts = (database: string) =>
        new Map(
          pg
            .psql(
              "SELECT b.event_id || b.kind, md5(b.text), v.anchor_id IS NOT NULL FROM bundles b LEFT JOIN vector_codes v USING (anchor_id)",
              database,
            )
            .split("\n")
            .map((l) => l.split("|"))
            .map(([k, md5, coded]) => [k!, { md5, coded: coded === "t" }]),
        );
      const plain = texts("pushed");
      const redacted = texts("pushed_redacted");
      expect(redacted.size).toBe(plain.size);
      for (const [k, b] of redacted) if (b.coded) expect(b.md5, k).toBe(plain.get(k)?.md5);
      expect(r.vectors).toBe([...redacted.values()].filter((b) => b.coded).length);
    }, 300_000);

    const pgvector = () =>
      pg.psql("SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'") === "1"
        ? null
        : "this PostgreSQL server has no pgvector extension to create (Debian ships none for PostgreSQL 15)";

    it("uses pgvector where the server can create the extension", (ctx) => {
      const reason = pgvector();
      if (reason) {
        console.warn(`pgvector test skipped: ${reason}`);
        ctx.skip();
      }
      const url = pg.createDatabase("with_pgvector");
      ok(cairn(["index", "--json", "--db", url, join(dir, "t")], { env: home() }));
      expect(pg.psql("SELECT count(*) FROM pg_extension WHERE extname = 'vector'", "with_pgvector")).toBe("1");
      expect(pg.psql("SELECT count(*) FROM vector_codes WHERE embedding IS NULL", "with_pgvector")).toBe("0");
      for (const query of QUERIES.slice(0, 3)) {
        // An exact scan in the server: the same nearest events as the sign-bit scan finds.
        const ids = hits(url, "vector", query);
        expect(ids.length).toBeGreaterThan(0);
        expect(new Set(ids.slice(0, 5))).toEqual(new Set(hits(sqlite, "vector", query).slice(0, 5)));
      }
    }, 300_000);
  },
  900_000,
);
