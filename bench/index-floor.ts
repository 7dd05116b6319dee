/**
 * The least any index of these events can cost, from the rows a full `cairn index` stored (read back, not timed):
 * - `inserts`: every stored row inserted again into a table with no index but its row id, with a contentless
 *   full-text table over the text alone, in transactions of 5,000 rows, WAL, as the indexer commits. No parsing,
 *   normalizing, other index, identifiers, stems, secrets, bundles or vectors: CPU and wall time.
 * - `seed_model`: the data model seeds 004 and DESIGN §2 prescribe and nothing more: a `session_events` row of the
 *   seed's thirteen columns keyed by `event_id`, a full-text index of the event's text, the typed edges keyed as
 *   the index keys them, no other index, no sessions, bundles or vectors, in one transaction: the CPU time of those
 *   inserts, and the size in bytes once checkpointed and vacuumed, the smallest database this data model allows.
 * - `turn_blocks`: what keeping the events' text and meta compressed would save and cost: each user turn's texts
 *   and metas joined and deflated (level 1, the fastest), the bytes before and after and the CPU time.
 * Printed as JSON. Usage: node bench/index-floor.ts INDEX.db SCRATCH.db
 */
import { rmSync, statSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { SEED_EVENT_COLUMNS } from "../src/store/shared/prepare-batch.ts";
import { FTS_TOKENIZE } from "../src/store/sqlite/schema.ts";

const [source = "", scratch = ""] = process.argv.slice(2);
if (!source || !scratch) throw new Error("usage: index-floor.ts INDEX.db SCRATCH.db");

const src = new Database(source, { readonly: true });
const read = src.prepare("SELECT * FROM session_events ORDER BY rowid").raw();
const columns = read.columns().map((c) => c.name);
const rows = read.all() as unknown[][];
const edges = src.prepare("SELECT src, dst, edge_type, session_id, meta FROM event_edges").raw().all() as unknown[][];
src.close();

const clear = () => {
  for (const ext of ["", "-wal", "-shm"]) rmSync(scratch + ext, { force: true });
};

function fresh(): Database.Database {
  clear();
  const db = new Database(scratch);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
}

/** Every stored row with its row id and a full-text index of its text, timed. */
function inserts(): { cpu_ms: number; wall_ms: number } {
  const textAt = columns.indexOf("text");
  const kept = columns.filter((c) => c !== "rowid");
  const db = fresh();
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
  return { cpu_ms: Math.round((c.user + c.system) / 1000), wall_ms: Math.round(performance.now() - t0) };
}

/** The seed's data model alone: the CPU time of its inserts, and its size in bytes once checkpointed and vacuumed. */
function seedModel(): { cpu_ms: number; bytes: number } {
  const at = SEED_EVENT_COLUMNS.map((c) => columns.indexOf(c));
  const textAt = SEED_EVENT_COLUMNS.indexOf("text");
  const db = fresh();
  db.exec(`CREATE TABLE session_events (event_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, provider TEXT NOT NULL,
  ordinal INTEGER NOT NULL, timestamp TEXT, role TEXT, event_type TEXT NOT NULL, text TEXT, tool_name TEXT,
  command TEXT, file_path TEXT, status TEXT, parent_event_id TEXT);
CREATE VIRTUAL TABLE events_fts USING fts5(text, content='', contentless_delete=1, tokenize="${FTS_TOKENIZE}");
CREATE TABLE event_edges (src TEXT NOT NULL, dst TEXT NOT NULL, edge_type TEXT NOT NULL, session_id TEXT NOT NULL,
  meta TEXT, PRIMARY KEY (src, dst, edge_type)) WITHOUT ROWID;`);
  const insert = db.prepare(`INSERT INTO session_events VALUES (${SEED_EVENT_COLUMNS.map(() => "?").join(", ")})`);
  const insertFts = db.prepare("INSERT INTO events_fts(rowid, text) VALUES (?, ?)");
  const insertEdge = db.prepare("INSERT OR IGNORE INTO event_edges VALUES (?, ?, ?, ?, ?)");
  const c0 = process.cpuUsage();
  db.transaction(() => {
    for (const row of rows) {
      const values = at.map((i) => row[i]);
      insertFts.run(insert.run(...values).lastInsertRowid, values[textAt]);
    }
    for (const edge of edges) insertEdge.run(...edge);
  })();
  const c = process.cpuUsage(c0);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("VACUUM");
  db.close();
  return { cpu_ms: Math.round((c.user + c.system) / 1000), bytes: statSync(scratch).size };
}

/** Each turn's texts and metas deflated as one block: bytes in, bytes out, CPU time of the deflating. */
function turnBlocks(): { raw_bytes: number; deflated_bytes: number; cpu_ms: number } {
  const [sessionAt, turnAt, textAt, metaAt] = ["session_id", "turn", "text", "meta"].map((c) => columns.indexOf(c));
  const turns = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row[sessionAt!]}\u0000${row[turnAt!]}`;
    const parts = turns.get(key) ?? [];
    parts.push(String(row[textAt!]), String(row[metaAt!]));
    turns.set(key, parts);
  }
  let raw = 0;
  let deflated = 0;
  const c0 = process.cpuUsage();
  for (const parts of turns.values()) {
    const block = Buffer.from(parts.join("\u0000"));
    raw += block.length;
    deflated += deflateRawSync(block, { level: 1 }).length;
  }
  const c = process.cpuUsage(c0);
  return { raw_bytes: raw, deflated_bytes: deflated, cpu_ms: Math.round((c.user + c.system) / 1000) };
}

const timed = inserts();
const seed = seedModel();
clear();
process.stdout.write(
  `${JSON.stringify({
    rows: rows.length,
    ...timed,
    seed_model_cpu_ms: seed.cpu_ms,
    seed_model_bytes: seed.bytes,
    turn_blocks: turnBlocks(),
  })}\n`,
);
