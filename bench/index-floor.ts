/**
 * The least any index of these events can cost: the rows a full `cairn index` stored, read back (not timed), then
 * inserted into a fresh table with only its row id and a contentless full-text table over the text alone, in
 * transactions of 5,000 rows, WAL, as the indexer commits. No parsing, no normalizing, no other column or index,
 * no vectors. Printed as JSON: CPU and wall time of the inserts, and the rows.
 * Usage: node bench/index-floor.ts INDEX.db SCRATCH.db
 */
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { FTS_TOKENIZE } from "../src/store/schema.ts";

const [source, scratch] = process.argv.slice(2);
if (!source || !scratch) throw new Error("usage: index-floor.ts INDEX.db SCRATCH.db");
const src = new Database(source, { readonly: true });
const read = src.prepare("SELECT * FROM session_events ORDER BY rowid").raw();
const columns = read.columns().map((c) => c.name);
const rows = read.all() as unknown[][];
src.close();
const textAt = columns.indexOf("text");
const kept = columns.filter((c) => c !== "rowid");

const clear = () => {
  for (const ext of ["", "-wal", "-shm"]) rmSync(scratch + ext, { force: true });
};
clear();
const db = new Database(scratch);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
// BLOB affinity: values are stored as they come (a hex id is not turned into a number).
db.exec(`CREATE TABLE e (id INTEGER PRIMARY KEY, ${kept.map((c) => `${c} BLOB`).join(", ")});
CREATE VIRTUAL TABLE e_fts USING fts5(text, content='', contentless_delete=1, tokenize="${FTS_TOKENIZE}");`);
const insert = db.prepare(`INSERT INTO e (${kept.join(", ")}) VALUES (${kept.map(() => "?").join(", ")})`);
const insertFts = db.prepare("INSERT INTO e_fts(rowid, text) VALUES (?, ?)");
const c0 = process.cpuUsage();
const t0 = performance.now();
db.exec("BEGIN");
rows.forEach((row, i) => {
  const id = insert.run(...row.slice(1)).lastInsertRowid;
  insertFts.run(id, row[textAt]);
  if ((i + 1) % 5_000 === 0) db.exec("COMMIT; BEGIN");
});
db.exec("COMMIT");
db.close();
const c = process.cpuUsage(c0);
process.stdout.write(
  `${JSON.stringify({ rows: rows.length, cpu_ms: Math.round((c.user + c.system) / 1000), wall_ms: Math.round(performance.now() - t0) })}\n`,
);
clear();
