/**
 * A child of `web-search.bench.ts`: one search in a new process, timing the open and the query alone (module
 * loading is timed apart by `npm run bench -- cold`). `node bench/web-search-cold.ts <checkout> <db> <query>`
 * prints one JSON line; the checkout is whose `src/` answers, so another one can be timed in the same rounds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [checkout, db, query] = process.argv.slice(2) as [string, string, string];
const { createCairn } = (await import(
  pathToFileURL(join(checkout, "src", "app", "cairn.ts")).href
)) as typeof import("../src/app/cairn.ts");

/** Minor page faults of this process so far (Linux), else 0. */
function faults(): number {
  try {
    return Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[7]);
  } catch {
    return 0;
  }
}
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

const f0 = faults();
const c0 = cpu();
const t0 = performance.now();
const app = createCairn({ db, env: {} });
app.reader();
const t1 = performance.now();
const answer = await app.search({ query, limit: 20, mode: "lexical" });
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({
    open: t1 - t0,
    query: t2 - t1,
    cpu: cpu() - c0,
    faults: faults() - f0,
    hits: answer.hits.map((h) => `${h.event_id}:${h.score}`).join(","),
  })}\n`,
);
app.close();
