/**
 * Runs one index pass in a fresh process and prints JSON with its own wall time, CPU time and peak RSS, so the
 * benchmark measures the indexer and not the corpus generator.
 */
import { indexPaths } from "../src/indexer/indexer.ts";
import { openStore } from "../src/store/sqlite/store.ts";

const [db, ...roots] = process.argv.slice(2);
if (!db || roots.length === 0) throw new Error("usage: index-child.ts DB ROOT...");
const store = openStore(db);
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const r = indexPaths({
  store,
  paths: roots,
  parallel: process.env["CAIRN_BENCH_PARALLEL"] === "0" ? false : undefined,
  // Secret detection off, to measure what it costs (the index benchmark runs the corpus both ways).
  secrets: process.env["CAIRN_BENCH_SECRETS"] === "0" ? false : undefined,
});
const c = process.cpuUsage(c0);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
store.close();
process.stdout.write(
  JSON.stringify({
    ms,
    cpu_ms: (c.user + c.system) / 1000,
    max_rss_mb: process.resourceUsage().maxRSS / 1024,
    files: r.files,
    changed: r.changed,
    bytes: r.bytes,
    events: r.events,
    sessions: r.sessions,
  }),
);
