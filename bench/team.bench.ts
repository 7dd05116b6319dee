/**
 * Issue 22 figures: the team index on PostgreSQL beside SQLite on the same generated corpus (real transcripts
 * cloned into distinct sessions): index throughput (MB/s, events/s) into each, the bridge's cost per call, search
 * latency p50/p95 warm on each at the events loaded, and the database sizes. CAIRN_BENCH_TEAM_FILES sets the
 * corpus size (default 400; 0 runs only the million-event part). Needs PostgreSQL's server binaries
 * (/usr/lib/postgresql/N/bin); that cluster is temporary and removed.
 *
 * Then at a million events (goal: search p95 ≤ 50 ms warm on PostgreSQL): the SQLite index `npm run bench --
 * web-search` builds (1.1 M events) is loaded into a kept cluster by `cairn push`'s code (timed; a later run finds
 * it there and sends nothing), and the same queries run on both. Skipped, with the reason, when that index is
 * missing. The machine's load average is printed beside the figures: the machine may be shared, so each search is
 * also timed in CPU (the client's, plus PostgreSQL's server processes'), which the other work changes far less.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { runPush } from "../src/app/push.ts";
import { indexPaths } from "../src/indexer/indexer.ts";
import { search } from "../src/search/search.ts";
import { connectPg } from "../src/store/pg/bridge.ts";
import { openPgStore } from "../src/store/pg/store.ts";
import { openReadonlyIndex } from "../src/store/sqlite/readonly.ts";
import { openStore } from "../src/store/sqlite/store.ts";
import type { ReadonlyStore } from "../src/store/types.ts";
import { pgSkipReason, startPg } from "../test/helpers/postgres.ts";
import { generateCorpus, realisticSizes } from "./corpus.ts";

const skip = pgSkipReason();
if (skip) {
  console.log(`skipped: ${skip}`);
  process.exit(0);
}
const files = Number(process.env["CAIRN_BENCH_TEAM_FILES"] ?? 400);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const queries = [
  "error: TS2554",
  "test:fail",
  "theme selector",
  'cmd:"npm run check"',
  "file:theme.ts",
  "decision:",
  "error: not found",
  "provider:codex apply_patch",
  "tool:Bash git",
  "process.env",
  "kind:error since:2025-11-21",
  "wrapAnsi",
  "project:pi-mono editor",
  '"cannot find name"',
];

function indexInto(base: string, mb: number, name: string, store: Parameters<typeof indexPaths>[0]["store"]): void {
  const t = performance.now();
  const r = indexPaths({ store, paths: [base] });
  const s = (performance.now() - t) / 1000;
  console.log(
    `index into ${name}: ${r.events} events in ${s.toFixed(1)} s: ${(mb / s).toFixed(2)} MB/s, ${Math.round(r.events / s)} events/s`,
  );
}

/**
 * CPU time (ms) the PostgreSQL server's processes have used: on a shared machine wall-clock times mostly measure the
 * other work, so each search is also timed in CPU, the client's (process.cpuUsage) plus the server's.
 */
function serverCpuMs(dataDir: string): () => number {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  return () => {
    let ns = 0;
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== postmaster) continue;
        ns += Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // a process that ended meanwhile
      }
    }
    return ns / 1e6;
  };
}

function searchTimes(name: string, store: ReadonlyStore, serverCpu: () => number = () => 0): void {
  for (const q of queries) search(store, q, { limit: 20 }); // warm
  const times: number[] = [];
  const cpus: number[] = [];
  const byQuery = new Map<string, number[]>(queries.map((q) => [q, []]));
  for (let round = 0; round < 5; round++)
    for (const q of queries) {
      const c = process.cpuUsage();
      const sc = serverCpu();
      const t = performance.now();
      search(store, q, { limit: 20 });
      const ms = performance.now() - t;
      const used = process.cpuUsage(c);
      cpus.push((used.user + used.system) / 1000 + serverCpu() - sc);
      times.push(ms);
      byQuery.get(q)!.push(ms);
    }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const slowest = [...byQuery]
    .sort((a, b) => median(b[1]) - median(a[1]))
    .slice(0, 3)
    .map(([q, xs]) => `${q} ${median(xs).toFixed(0)} ms`);
  console.log(
    `search ${name} at ${store.counts().events} events (warm, lexical, load ${loadavg()[0]!.toFixed(1)}): p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; CPU (client + server) p50 ${pct(cpus, 50).toFixed(1)} ms, p95 ${pct(cpus, 95).toFixed(1)} ms; slowest (median): ${slowest.join(", ")}`,
  );
}

/** Index throughput, push and search on a generated corpus of `files` transcripts, in a temporary cluster. */
async function smallCorpus(files: number): Promise<void> {
  const base = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"), `team-${files}`);
  const corpus = generateCorpus(
    base,
    realisticSizes(files, 22).map((s) => Math.min(s, 5_000_000)),
    `team-${files}`,
  );
  const mb = corpus.reduce((a, f) => a + f.bytes, 0) / 1048576;
  console.log(`corpus: ${corpus.length} files, ${mb.toFixed(1)} MB`);
  const sqlitePath = join(tmpdir(), `cairn-team-bench-${process.pid}.db`);
  const pg = await startPg();
  try {
    const conn = connectPg(pg.url);
    for (let i = 0; i < 200; i++) conn.query("SELECT 1");
    const n = 2_000;
    let t = performance.now();
    for (let i = 0; i < n; i++) conn.query("SELECT $1::int AS x", [i]);
    console.log(
      `bridge: ${(((performance.now() - t) * 1000) / n).toFixed(0)} µs per call (worker + loopback server round trip)`,
    );
    conn.close();

    const sqlite = openStore(sqlitePath);
    indexInto(base, mb, "SQLite    ", sqlite);
    const team = openPgStore(pg.url, { machine: "bench", user: "bench" });
    indexInto(base, mb, "PostgreSQL", team);
    // cairn push of the same SQLite index into empty databases: as it runs (a load this large builds the search
    // indexes after it) and with them kept up to date event by event, as a small push into a large index does.
    for (const bulk of [true, false]) {
      const to = pg.createDatabase(`push_${bulk ? "bulk" : "kept"}`);
      const t0 = performance.now();
      const r = runPush({ from: sqlitePath, to, env: { ...process.env, CAIRN_MACHINE: "bench" }, bulk });
      const s = (performance.now() - t0) / 1000;
      console.log(
        `push into PostgreSQL (${bulk ? "indexes built after" : "indexes kept up to date"}): ${r.events} events in ${s.toFixed(1)} s: ${(mb / s).toFixed(2)} MB/s of transcripts, ${Math.round(r.events / s)} events/s`,
      );
    }
    searchTimes("SQLite    ", sqlite);
    searchTimes("PostgreSQL", team, serverCpuMs(pg.dataDir));
    t = performance.now();
    team.close();
    sqlite.close();
    const pgBytes = Number(pg.psql("SELECT pg_database_size('cairn')"));
    const sqliteBytes = statSync(sqlitePath).size;
    console.log(
      `size: PostgreSQL ${(pgBytes / 1048576).toFixed(0)} MB, SQLite ${(sqliteBytes / 1048576).toFixed(0)} MB, transcripts ${mb.toFixed(0)} MB`,
    );
  } finally {
    pg.stop();
    rmSync(sqlitePath, { force: true });
    rmSync(`${sqlitePath}-wal`, { force: true });
    rmSync(`${sqlitePath}-shm`, { force: true });
  }
}

// CAIRN_BENCH_TEAM_FILES=0: only the million-event part below.
if (files > 0) await smallCorpus(files);

const root = process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench");
const million = join(root, "web-search", "index-1000000.db");
if (!existsSync(million))
  console.log(`1 M events: skipped: ${million} is missing ('npm run bench -- web-search' builds it)`);
else {
  const kept = await startPg({ keep: join(root, "team-1m") });
  try {
    const t = performance.now();
    const pushed = runPush({ from: million, to: kept.url, env: { ...process.env, CAIRN_MACHINE: "bench" } });
    const s = (performance.now() - t) / 1000;
    console.log(
      `push 1 M into PostgreSQL: ${pushed.sent} sessions sent (${pushed.events} events) in ${s.toFixed(0)} s, ${pushed.unchanged} already there`,
    );
    kept.psql("VACUUM ANALYZE");
    const local = openReadonlyIndex(million).store;
    const team = openPgStore(kept.url, { machine: "bench", user: "bench" }, { readonly: true });
    searchTimes("SQLite    ", local);
    searchTimes("PostgreSQL", team, serverCpuMs(kept.dataDir));
    team.close();
    local.close();
    console.log(
      `size at 1 M: PostgreSQL ${(Number(kept.psql("SELECT pg_database_size('cairn')")) / 1048576).toFixed(0)} MB, SQLite ${(statSync(million).size / 1048576).toFixed(0)} MB`,
    );
  } finally {
    kept.stop();
  }
}
