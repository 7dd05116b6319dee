/**
 * Runs the vector phase alone on a copy of an index built without it (`bench/index-child.ts`), in a fresh process,
 * and prints its wall time, CPU time, the main thread's, peak RSS and a fingerprint of every stored bundle text and vector code, so a
 * change to the phase can be timed against its baseline and shown to store the same bytes.
 * Usage: [CAIRN_BENCH_THREADS=0] node bench/vectors-child.ts SOURCE.db SCRATCH.db
 */
import { createHash } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { createStaticEmbedder } from "../src/embedders/static.ts";
import { createThreadedStaticEmbedder } from "../src/embedders/static-threaded.ts";
import { refreshVectors } from "../src/search/vectors.ts";
import { openStore } from "../src/store/sqlite/store.ts";

const [source, scratch] = process.argv.slice(2);
if (!source || !scratch) throw new Error("usage: vectors-child.ts SOURCE.db SCRATCH.db");
for (const ext of ["", "-wal", "-shm"]) rmSync(scratch + ext, { force: true });
copyFileSync(source, scratch);
const store = openStore(scratch);
const m0 = process.threadCpuUsage();
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
// As `cairn index` embeds (a worker thread past the first texts), or all on this thread with CAIRN_BENCH_THREADS=0.
const embedder = process.env["CAIRN_BENCH_THREADS"] === "0" ? createStaticEmbedder() : createThreadedStaticEmbedder();
const r = await refreshVectors(store, embedder);
await embedder.close?.();
const c = process.cpuUsage(c0);
// The writing thread's own CPU time (the process's counts the embedder's worker too).
const m = process.threadCpuUsage(m0);
const rss = process.resourceUsage().maxRSS / 1024;
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
store.close();
const db = new Database(scratch, { readonly: true });
const digest = (sql: string) => {
  const h = createHash("sha256");
  for (const row of db.prepare(sql).raw().iterate())
    h.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString("base64") : v)));
  return h.digest("hex").slice(0, 16);
};
process.stdout.write(
  `${JSON.stringify({
    ms: Math.round(ms),
    cpu_ms: Math.round((c.user + c.system) / 1000),
    main_cpu_ms: Math.round((m.user + m.system) / 1000),
    max_rss_mb: Math.round(rss),
    bundled: r.bundled,
    embedded: r.embedded,
    bundles: digest(
      "SELECT b.anchor_rowid, b.event_id, b.kind, b.text, b.embedded FROM bundles b ORDER BY anchor_rowid",
    ),
    codes: digest("SELECT anchor_rowid, code FROM vector_codes ORDER BY anchor_rowid"),
    bits: digest("SELECT chunk, rowids, kinds, bits FROM vector_bits ORDER BY chunk"),
    queued: db.prepare("SELECT count(*) FROM bundle_queue").pluck().get(),
  })}\n`,
);
