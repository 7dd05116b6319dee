/**
 * The team index against a real PostgreSQL server (a cluster made by initdb for this file): machines indexing at
 * once, answers equal to SQLite's on the same transcripts, a re-run that changes nothing, kill -9 mid-run, and a
 * read-only role. Everything runs through the built CLI.
 */
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus, realisticSizes } from "../../bench/corpus.ts";
import { runPush } from "../../src/app/push.ts";
import { createIndexSources } from "../../src/pi/index-sources.ts";
import { CLI, cairn, cairnInTerminal } from "../helpers/cli.ts";
import { type PgCluster, pgSkipReason, startPg } from "../helpers/postgres.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { plantSecrets } from "../secrets/plant.ts";

const skip = pgSkipReason();

/** A JSON answer without the machine and user a team index adds to each session. */
function withoutOrigin(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutOrigin);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (k !== "machine" && k !== "user_name") out[k] = withoutOrigin(x);
  return out;
}
if (skip) console.warn(`team index tests skipped: ${skip}`);

/** Runs the CLI without blocking, so two can run at once. */
function cairnAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function ok(r: { code: number | null; stdout: string; stderr: string }): string {
  if (r.code !== 0) throw new Error(`cairn exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe.skipIf(skip !== null)(
  "team index on PostgreSQL",
  () => {
    let pg: PgCluster;
    let dir: string;
    /** Two machines' transcripts: Claude Code's on one, Codex and pi on the other. */
    let homeA: string;
    let homeB: string;
    let all: string;
    const ids = (url: string, table: "session_events" | "sessions", col: string) =>
      new Set(pg.psql(`SELECT ${col} FROM ${table}`, new URL(url).pathname.slice(1)).split("\n").filter(Boolean));

    beforeAll(async () => {
      pg = await startPg();
      dir = mkdtempSync(join(tmpdir(), "cairn-team-"));
      const real = realFixturesDir();
      homeA = join(dir, "a");
      homeB = join(dir, "b");
      all = join(dir, "all");
      mkdirSync(join(homeA, "t"), { recursive: true });
      mkdirSync(join(homeB, "t"), { recursive: true });
      cpSync(join(real, "claude"), join(homeA, "t", "claude"), { recursive: true });
      cpSync(join(real, "codex"), join(homeB, "t", "codex"), { recursive: true });
      cpSync(join(real, "pi"), join(homeB, "t", "pi"), { recursive: true });
      cpSync(real, all, { recursive: true });
    }, 120_000);

    afterAll(() => {
      pg?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const envOf = (home: string, machine: string) => ({ HOME: home, CAIRN_MACHINE: machine });

    it("two machines indexing at once give exactly the union of what each gives alone", async () => {
      const alone = { a: pg.createDatabase("alone_a"), b: pg.createDatabase("alone_b") };
      ok(cairn(["index", "--json", "--db", alone.a, join(homeA, "t")], { env: envOf(homeA, "laptop-a") }));
      ok(cairn(["index", "--json", "--db", alone.b, join(homeB, "t")], { env: envOf(homeB, "laptop-b") }));
      const team = pg.createDatabase("together");
      const [ra, rb] = await Promise.all([
        cairnAsync(["index", "--json", "--db", team, join(homeA, "t")], envOf(homeA, "laptop-a")),
        cairnAsync(["index", "--json", "--db", team, join(homeB, "t")], envOf(homeB, "laptop-b")),
      ]);
      ok(ra);
      ok(rb);
      for (const [table, col] of [
        ["session_events", "event_id"],
        ["sessions", "session_id"],
      ] as const) {
        const a = ids(alone.a, table, col);
        const b = ids(alone.b, table, col);
        expect(a.size).toBeGreaterThan(0);
        expect(b.size).toBeGreaterThan(0);
        expect([...ids(team, table, col)].sort()).toEqual([...new Set([...a, ...b])].sort());
      }
      // Each session and file says where it came from.
      expect(pg.psql("SELECT DISTINCT machine FROM sessions ORDER BY 1", "together").split("\n")).toEqual([
        "laptop-a",
        "laptop-b",
      ]);
      expect(pg.psql("SELECT count(*) FROM source_files WHERE user_name IS NULL", "together")).toBe("0");
      // A re-run by either machine changes nothing.
      const again = JSON.parse(
        ok(cairn(["index", "--json", "--db", team, join(homeB, "t")], { env: envOf(homeB, "laptop-b") })),
      );
      expect(again).toMatchObject({ changed: 0, events: 0, gone: 0 });
      // machine: narrows a search to one machine's sessions.
      const hits = JSON.parse(ok(cairn(["search", "--json", "--db", team, "--limit", "50", "machine:laptop-a"])));
      expect(hits.hits.length).toBeGreaterThan(0);
      expect(new Set(hits.hits.map((h: { provider: string }) => h.provider))).toEqual(new Set(["claude"]));
    }, 240_000);

    it("the same path on two machines keeps two files' bookkeeping, and neither run marks the other's gone", () => {
      const url = pg.createDatabase("same_path");
      const shared = join(dir, "shared");
      cpSync(join(homeA, "t"), shared, { recursive: true });
      ok(cairn(["index", "--json", "--db", url, shared], { env: envOf(homeA, "box-1") }));
      rmSync(shared, { recursive: true });
      cpSync(join(homeB, "t"), shared, { recursive: true });
      const b = JSON.parse(ok(cairn(["index", "--json", "--db", url, shared], { env: envOf(homeB, "box-2") })));
      expect(b.gone).toBe(0);
      expect(b.changed).toBeGreaterThan(0);
      expect(pg.psql("SELECT count(*) FROM source_files WHERE gone_at IS NOT NULL", "same_path")).toBe("0");
      expect(pg.psql("SELECT string_agg(DISTINCT machine, ',' ORDER BY machine) FROM source_files", "same_path")).toBe(
        "box-1,box-2",
      );
      rmSync(shared, { recursive: true });
    }, 240_000);

    it("search, threads, resume and timeline answer as SQLite does on the same transcripts", () => {
      const url = pg.createDatabase("same_answers");
      const sqlite = join(dir, "cairn.db");
      const home = { HOME: join(dir, "home") };
      ok(cairn(["index", "--json", "--db", url, all], { env: home }));
      ok(cairn(["index", "--json", "--db", sqlite, all], { env: home }));
      // With the table's statistics, a ranked search narrows by a facet rarer than its words inside the index
      // (store/pg/stats.ts); the answers must not change.
      pg.psql("ANALYZE session_events", "same_answers");
      const both = (args: string[]) =>
        [url, sqlite].map((db) => JSON.parse(ok(cairn([...args, "--db", db], { env: home }))));

      const queries = [
        "kind:error",
        "tool:bash",
        "provider:codex",
        "project:pi-mono kind:user_message",
        "shim binary",
        '"target shim binary"',
        "systemPrompt",
        "parseArgs",
        "committed",
        "npm -test",
        "kind:error not found",
        "tool:bash npm",
        "kind:user_message the",
        "cmd:npm",
        'cmd:"git status"',
        // Substrings fold ASCII case as the local index's LIKE does.
        "file:routes/",
        "file:PLAN.TSX",
        // A value's last word may start a longer one: .ts is in app.tsx as in LIKE '%.ts%'.
        "file:.ts",
        "provider:claude cmd:GIT",
        // An absolute path, which file actions show from the project's folder, and a folder of it.
        "file:/Users/User/repo/codemie-ai/codemie-code/src/agents/registry.ts",
        "file:/Users/User/repo/codemie-ai/codemie-code/src/agents/",
        // Long queries never overflow a parser: a pasted paragraph, an OR chain, many exclusions.
        `shim binary ${Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ")}`,
        `shim OR ${Array.from({ length: 300 }, (_, i) => `w${i}`).join(" OR ")}`,
        `shim ${Array.from({ length: 300 }, (_, i) => `-w${i}`).join(" ")}`,
      ];
      for (const query of queries) {
        const [p, s] = both(["search", "--json", "--mode", "lexical", "--limit", "2000", query]);
        const idsOf = (r: { hits: Array<{ event_id: string }> }) => r.hits.map((h) => h.event_id);
        expect(idsOf(p).length, query).toBeGreaterThan(0);
        // Filter-only queries come newest first in both; ranked ones hold the same events (the rankers differ).
        if (/^[a-z_]+:/.test(query) && !query.includes(" ")) expect(idsOf(p), query).toEqual(idsOf(s));
        else expect([...idsOf(p)].sort(), query).toEqual([...idsOf(s)].sort());
      }
      // cmd: walks the newest commands a few times the page's size, then lists the trigram index's candidates
      // (pg_trgm, contrib: always there): the limit above took the second path, these small pages the first.
      expect(pg.psql("SELECT to_regclass('events_command_trgm') IS NOT NULL", "same_answers")).toBe("t");
      for (const query of ["cmd:npm", 'cmd:"git status"'])
        for (const limit of ["1", "5"]) {
          const [p, s] = both(["search", "--json", "--mode", "lexical", "--limit", limit, query]);
          const idsOf = (r: { hits: Array<{ event_id: string }> }) => r.hits.map((h) => h.event_id);
          expect(idsOf(p), `${query} --limit ${limit}`).toEqual(idsOf(s));
          expect(idsOf(p).length, `${query} --limit ${limit}`).toBe(Number(limit));
        }
      // Ranked searches go through RUM where the server has it, else through the GIN index and ts_rank: both paths
      // match the same events. A reader finds the GIN index when RUM's is gone (a writer would build RUM again).
      const rum = pg.psql("SELECT to_regclass('events_rum') IS NOT NULL", "same_answers") === "t";
      if (!rum) console.warn("RUM path not tested: the server has no rum extension (postgresql-NN-rum)");
      else {
        const ranked = queries.filter((query) => query.includes(" ") || !/^[a-z_]+:/.test(query));
        const before = ranked.map((query) => both(["search", "--json", "--mode", "lexical", "--limit", "2000", query]));
        pg.psql("DROP INDEX events_rum; CREATE INDEX events_fts ON session_events USING GIN (fts)", "same_answers");
        ranked.forEach((query, i) => {
          const [gin] = both(["search", "--json", "--mode", "lexical", "--limit", "2000", query]);
          const idsOf = (r: { hits: Array<{ event_id: string }> }) => r.hits.map((h) => h.event_id).sort();
          expect(idsOf(gin), query).toEqual(idsOf(before[i]![0]));
        });
      }

      const [tp, ts] = both(["threads", "--json", "--all"]);
      expect(tp).toEqual(ts);
      const sessions = JSON.parse(ok(cairn(["sessions", "--json", "--db", sqlite], { env: home })));
      const list: Array<{ session_id: string }> = sessions.sessions ?? sessions;
      expect(list.length).toBeGreaterThan(3);
      // The team index also says which machine and user each session came from.
      const [sp] = both(["sessions", "--json"]);
      const rowsOf = (r: { sessions?: unknown[] } | unknown[]) =>
        (Array.isArray(r) ? r : (r.sessions ?? [])) as Array<Record<string, unknown>>;
      expect(rowsOf(sp).every((r) => typeof r["machine"] === "string")).toBe(true);
      const plain = rowsOf(sp).map(({ machine: _m, user_name: _u, ...r }) => r);
      expect(plain).toEqual(rowsOf(sessions));
      for (const s of list.slice(0, 4)) {
        const [rp, rs] = both(["resume", s.session_id, "--json"]);
        expect(withoutOrigin(rp), s.session_id).toEqual(rs);
        const [lp, ls] = both(["timeline", s.session_id, "--json", "--limit", "50"]);
        expect(withoutOrigin(lp), s.session_id).toEqual(ls);
      }
    }, 420_000);

    it("kill -9 while indexing leaves no partial file, and the next run ends where a clean run does", async () => {
      // Generated transcripts several times the fixtures' size, so the first commit comes long before the last
      // (on an idle machine the fixtures alone were indexed between two polls).
      const corpus = join(dir, "kill-corpus");
      generateCorpus(
        corpus,
        realisticSizes(40, 7).map((size) => Math.min(size, 1_000_000)),
        "team-kill",
      );
      const clean = pg.createDatabase("clean");
      ok(cairn(["index", "--json", "--db", clean, corpus], { env: envOf(homeA, "m") }));
      const url = pg.createDatabase("killed");
      const child = spawn(process.execPath, [CLI, "index", "--db", url, corpus], {
        env: { ...process.env, ...envOf(homeA, "m") },
        stdio: "ignore",
      });
      const exited = new Promise((r) => child.on("exit", r));
      // Wait until some of its writes are committed, then kill it without warning.
      const committed = () => {
        try {
          return Number(pg.psql("SELECT count(*) FROM session_events", "killed"));
        } catch {
          return 0; // not migrated yet
        }
      };
      while (child.exitCode === null && committed() === 0) await new Promise((r) => setTimeout(r, 20));
      expect(child.exitCode, "the run ended before it could be killed").toBeNull();
      child.kill("SIGKILL");
      await exited;
      const events = committed();
      expect(events).toBeGreaterThan(0);
      expect(events).toBeLessThan(ids(clean, "session_events", "event_id").size);
      // Every committed event belongs to a file whose position was committed with it.
      expect(
        pg.psql(
          "SELECT count(*) FROM session_events e WHERE NOT EXISTS (SELECT 1 FROM source_files f WHERE f.path = e.source_file)",
          "killed",
        ),
      ).toBe("0");
      ok(cairn(["index", "--json", "--db", url, corpus], { env: envOf(homeA, "m") }));
      expect([...ids(url, "session_events", "event_id")].sort()).toEqual(
        [...ids(clean, "session_events", "event_id")].sort(),
      );
      expect(
        pg.psql(
          "SELECT count(*) FROM sessions s WHERE event_count <> (SELECT count(*) FROM session_events e WHERE e.session_id = s.session_id)",
          "killed",
        ),
      ).toBe("0");
    }, 240_000);

    it("pi's recall reads a team index named by its URL", async () => {
      const url = pg.createDatabase("pi_recall");
      const home = { HOME: join(dir, "home-pi") };
      ok(cairn(["index", "--json", "--db", url, all], { env: home }));
      const cwd = join(dir, "pi-cwd");
      mkdirSync(cwd, { recursive: true });
      const sources = createIndexSources({ dbPath: url, env: home, background: false });
      try {
        const { hits } = await sources.recall.search({ query: "shim binary", limit: 5, cwd });
        expect(hits.length).toBeGreaterThan(0);
      } finally {
        await sources.close();
      }
      expect(readdirSync(cwd)).toEqual([]);
    }, 120_000);

    it("a read-only role runs every read command, and cannot index", () => {
      const url = pg.createDatabase("reads");
      const home = { HOME: join(dir, "home") };
      ok(cairn(["index", "--json", "--db", url, all], { env: home }));
      pg.psql("CREATE ROLE reader LOGIN");
      pg.psql("GRANT CONNECT ON DATABASE reads TO reader; REVOKE CREATE ON SCHEMA public FROM PUBLIC", "reads");
      pg.psql("GRANT USAGE ON SCHEMA public TO reader; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader", "reads");
      const ro = pg.urlFor("reads", "reader");
      const listed = JSON.parse(ok(cairn(["sessions", "--json", "--db", ro], { env: home })));
      const first = (Array.isArray(listed) ? listed : listed.sessions)[0].session_id as string;
      for (const args of [
        ["search", "--json", "--mode", "lexical", "kind:error"],
        ["search", "--json", "shim binary"],
        ["threads", "--json", "--all"],
        ["timeline", first, "--json"],
        ["resume", first, "--json"],
        ["export", first, "--format", "json"],
      ])
        ok(cairn([...args, "--db", ro], { env: home }));
      const write = cairn(["index", "--json", "--db", ro, all], { env: home });
      expect(write.code).not.toBe(0);
      expect(write.stdout + write.stderr).toMatch(/permission denied/);
    }, 240_000);

    it("push sends a local index's sessions to the team index once, and --redact hides the home folder and secrets", () => {
      const sqlite = join(dir, "push.db");
      const env = envOf(homeA, "laptop-a");
      ok(cairn(["index", "--json", "--db", sqlite, join(homeA, "t")], { env }));
      const direct = pg.createDatabase("push_direct");
      ok(cairn(["index", "--json", "--db", direct, join(homeA, "t")], { env }));
      const url = pg.createDatabase("pushed");
      const first = JSON.parse(ok(cairn(["push", "--json", "--db", sqlite, "--to", url], { env })));
      expect(first.sent).toBeGreaterThan(0);
      expect(first.events).toBeGreaterThan(0);
      for (const [table, col] of [
        ["session_events", "event_id"],
        ["sessions", "session_id"],
      ] as const)
        expect([...ids(url, table, col)].sort()).toEqual([...ids(direct, table, col)].sort());
      const again = JSON.parse(ok(cairn(["push", "--json", "--db", sqlite, "--to", url], { env })));
      expect(again).toMatchObject({ sent: 0, events: 0, unchanged: first.sent, rebuiltIndexes: false });
      // A bulk push (large ones are; this one is asked to be) loads without the search indexes and builds them
      // after: it answers as the direct copy does.
      const bulkUrl = pg.createDatabase("pushed_bulk");
      const bulk = runPush({ from: sqlite, to: bulkUrl, env: { ...process.env, ...env }, bulk: true });
      expect(bulk).toMatchObject({ sent: first.sent, events: first.events, rebuiltIndexes: true });
      const indexes = (db: string) =>
        pg.psql(
          "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE indexname IN ('events_rum', 'events_fts', 'events_command_trgm')",
          db,
        );
      expect(indexes("pushed_bulk")).toBe(indexes("push_direct"));
      expect(indexes("pushed_bulk")).toMatch(/events_command_trgm/);
      // ... and the table's statistics, so the planner and the facet choice see what was loaded.
      expect(
        pg.psql(
          "SELECT count(*) > 0 FROM pg_stats WHERE tablename = 'session_events' AND attname = 'fts'",
          "pushed_bulk",
        ),
      ).toBe("t");
      for (const query of ["error", "cmd:npm", "kind:error"]) {
        const [b, d] = [bulkUrl, direct].map((db) =>
          JSON.parse(
            ok(cairn(["search", "--json", "--mode", "lexical", "--limit", "500", query, "--db", db], { env })),
          ),
        );
        const idsOf = (r: { hits: Array<{ event_id: string }> }) => r.hits.map((h) => h.event_id).sort();
        expect(idsOf(b).length, query).toBeGreaterThan(0);
        expect(idsOf(b), query).toEqual(idsOf(d));
      }
      const stopped = new AbortController();
      stopped.abort();
      const interrupted = pg.createDatabase("pushed_stopped");
      const none = runPush({
        from: sqlite,
        to: interrupted,
        env: { ...process.env, ...env },
        bulk: true,
        signal: stopped.signal,
      });
      expect(none).toMatchObject({ sent: 0, interrupted: true, rebuiltIndexes: true });
      expect(indexes("pushed_stopped")).toBe(indexes("push_direct"));
      // A bulk push killed before it rebuilt them: the next writer to open the index builds them.
      pg.psql(
        "DROP INDEX IF EXISTS events_rum; DROP INDEX IF EXISTS events_fts; DROP INDEX events_command_trgm",
        "pushed_stopped",
      );
      ok(cairn(["push", "--json", "--db", sqlite, "--to", interrupted], { env }));
      expect(indexes("pushed_stopped")).toBe(indexes("push_direct"));
      // What was pushed answers like the directly indexed copy.
      const [p, d] = [url, direct].map((db) =>
        JSON.parse(
          ok(cairn(["search", "--json", "--mode", "lexical", "--limit", "500", "kind:error", "--db", db], { env })),
        ),
      );
      expect(p.hits.map((h: { event_id: string }) => h.event_id)).toEqual(
        d.hits.map((h: { event_id: string }) => h.event_id),
      );

      const red = pg.createDatabase("pushed_redacted");
      ok(cairn(["push", "--json", "--redact", "--db", sqlite, "--to", red], { env }));
      expect(Number(pg.psql("SELECT count(*) FROM sessions", "pushed_redacted"))).toBe(
        ids(url, "sessions", "session_id").size,
      );
      expect(pg.psql(`SELECT count(*) FROM sessions WHERE source_file NOT LIKE '~/%'`, "pushed_redacted")).toBe("0");
      expect(pg.psql(`SELECT count(*) FROM session_events WHERE source_file LIKE '${homeA}%'`, "pushed_redacted")).toBe(
        "0",
      );
      // Secrets in the local index reach the team index only as their markers, with or without --redact.
      mkdirSync(join(dir, "planted", "t"), { recursive: true });
      const plantedFile = join(dir, "planted", "t", "s.jsonl");
      copyFileSync(join(realFixturesDir(), "claude", "codemie__session-624a4a58.jsonl"), plantedFile);
      const planted = plantSecrets(plantedFile);
      const plantedDb = join(dir, "planted.db");
      ok(cairn(["index", "--json", "--db", plantedDb, join(dir, "planted", "t")], { env }));
      const holding = (database: string) =>
        planted.filter(
          (v) =>
            pg.psql(
              `SELECT count(*) FROM session_events WHERE strpos(text || coalesce(command, '') || coalesce(meta, ''), '${v.replace(/'/g, "''")}') > 0`,
              database,
            ) !== "0",
        );
      for (const [name, flags] of [
        ["pushed_secrets", ["--redact"]],
        ["pushed_plain", []],
      ] as const) {
        ok(cairn(["push", "--json", ...flags, "--db", plantedDb, "--to", pg.createDatabase(name)], { env }));
        expect(holding(name)).toEqual([]);
        expect(pg.psql("SELECT count(*) FROM session_events WHERE text LIKE '%[secret:%'", name)).not.toBe("0");
      }
      // The local index keeps the values (nothing is lost by pushing).
      const out = join(dir, "local.json");
      ok(
        cairnInTerminal(["export", "624a4a58", "--format", "json", "--reveal-secrets", "-o", out, "--db", plantedDb], {
          env,
        }),
      );
      const local = readFileSync(out, "utf8");
      expect(planted.every((v) => local.includes(JSON.stringify(v).slice(1, -1)))).toBe(true);

      // Not a team index: a clear usage error.
      const wrong = cairn(["push", "--db", sqlite, "--to", join(dir, "other.db")], { env });
      expect(wrong.code).toBe(2);
    }, 240_000);
  },
  600_000,
);
