/**
 * Parse + normalize throughput (MB/s of CPU time) of the readers and the topology, beside JSON.parse of every line of the same
 * bytes in the same run, on the real fixtures, per agent (its real transcripts and what its current CLI wrote in
 * the harness), and on a generated corpus of at least 200 MB.
 * Goal (issue 2): at least half of JSON.parse alone.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { readTranscriptFile } from "../src/indexer/read-file.ts";
import { statTranscript } from "../src/indexer/scan.ts";
import { detectDatabaseReader } from "../src/readers/detect.ts";
import { eventFiles, eventFolderOf } from "../src/readers/event-folder.ts";
import { splitLines } from "../src/readers/lines.ts";
import { isTranscriptFile } from "../src/readers/roots.ts";
import { generateCorpus, realFixtureFiles, realFixturesDir, realisticSizes } from "./corpus.ts";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures");
const CLIENTS = join(FIXTURES, "clients");
/** Real files of the agents that are editors or apps, published in public repositories. */
const EDITORS = join(FIXTURES, "editors");

/**
 * The transcripts under `root`, one folder per agent: what the agents' own CLIs wrote in the real-client harness
 * (test/fixtures/clients), or the editors' real files (test/fixtures/editors).
 */
function agentFixtureFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (isTranscriptFile(n)) out.push(p);
    }
  };
  walk(root);
  return out;
}

const CHUNK = 8 * 1024 * 1024;

/** The baseline: read the same bytes in the same chunks, split lines, JSON.parse each. */
function jsonParseOnly(path: string): number {
  const fd = openSync(path, "r");
  let pos = 0;
  let carry = Buffer.alloc(0);
  let n = 0;
  const size = fstatSync(fd).size;
  try {
    for (;;) {
      const want = Math.max(1, Math.min(CHUNK, size - pos + 1));
      const chunk = Buffer.allocUnsafe(want);
      const read = readSync(fd, chunk, 0, want, pos);
      pos += read;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const split = splitLines(buf, 1, read < want);
      for (const l of split.lines) {
        try {
          JSON.parse(l.text);
          n++;
        } catch {
          // counted as zero work either way
        }
      }
      carry = Buffer.from(buf.subarray(split.consumed));
      if (read < want) return n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The baseline for one transcript of any shape: JSON.parse of every line; of the whole document for a file that is
 * one JSON document (Gemini CLI's older chats); of every row's JSON for a database (the rows cairn's reader gets).
 */
function baseline(path: string): number {
  if (/\.(db|sqlite|vscdb)$/.test(path)) return jsonParseRows(path);
  const folder = eventFolderOf(path);
  if (folder !== null) return jsonParseEventFiles(path, folder);
  if (path.endsWith(".json")) {
    JSON.parse(readFileSync(path, "utf8"));
    return 1;
  }
  return jsonParseOnly(path);
}

/** JSON.parse of the JSON each row of the reader's own query carries: the rows cairn's reader gets. */
function jsonParseRows(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((t) => t.name);
    const query = detectDatabaseReader(tables)?.database?.query;
    if (!query) return 0;
    let n = 0;
    for (const row of db.prepare(query).iterate() as Iterable<Record<string, unknown>>) {
      for (const v of Object.values(row)) if (typeof v === "string" && /^[[{]/.test(v)) parseIfJson(v);
      n++;
    }
    return n;
  } finally {
    db.close();
  }
}

/** JSON.parse of a transcript kept as a folder of event files: its own file and each event file, whole. */
function jsonParseEventFiles(path: string, folder: string): number {
  JSON.parse(readFileSync(path, "utf8"));
  const names = eventFiles(readdirSync(folder));
  for (const n of names) parseIfJson(readFileSync(join(folder, n), "utf8"));
  return names.length;
}

/** Text that only starts like JSON (a message beginning `[CONTEXT …]`) is no JSON to parse. */
function parseIfJson(text: string): void {
  try {
    JSON.parse(text);
  } catch {
    // not JSON: nothing the reader decodes either
  }
}

function cairnParse(path: string): number {
  let events = 0;
  readTranscriptFile(path, {
    takeUnterminated: true,
    onBatch(batch) {
      events += batch.events.length;
    },
  });
  return events;
}

/**
 * CPU seconds (user + system) of this process: on a shared two-core machine, wall time moves with whatever else
 * runs, while the CPU a single-threaded parse spends on its own work does much less.
 */
function time(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function measure(label: string, files: string[], repeat: number, base: (p: string) => number = jsonParseOnly): void {
  const bytes = files.reduce((a, f) => a + statTranscript(f).size, 0) * repeat;
  let events = 0;
  const run = (fn: (p: string) => number) => () => {
    for (let r = 0; r < repeat; r++) for (const f of files) events += fn(f);
  };
  // Warm both paths once, then take the best of five interleaved runs of each.
  run(base)();
  run(cairnParse)();
  let bestJson = Number.POSITIVE_INFINITY;
  let bestCairn = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    bestJson = Math.min(bestJson, time(run(base)));
    events = 0;
    bestCairn = Math.min(bestCairn, time(run(cairnParse)));
  }
  const mb = bytes / 1048576;
  const json = mb / bestJson;
  const cairn = mb / bestCairn;
  console.log(
    `${label.padEnd(34)} ${mb.toFixed(1).padStart(7)} MB  JSON.parse ${json.toFixed(1).padStart(6)} MB/s  cairn parse+normalize ${cairn.toFixed(1).padStart(6)} MB/s  ratio ${(cairn / json).toFixed(2)}  (${events} events)`,
  );
}

const real = realFixtureFiles();
if (!process.env["CAIRN_BENCH_AGENTS"]) measure(`real fixtures (${real.length} files, ×10)`, real, 10);

// Per agent: its real transcripts from public repositories and what its current CLI wrote in the harness (or, for
// an editor, its real files).
const agents = new Map<string, string[]>();
for (const f of real) {
  const agent = relative(realFixturesDir(), f).split(sep)[0]!;
  agents.set(agent, [...(agents.get(agent) ?? []), f]);
}
for (const root of [CLIENTS, EDITORS])
  for (const f of agentFixtureFiles(root)) {
    const agent = relative(root, f).split(sep)[0]!;
    agents.set(agent, [...(agents.get(agent) ?? []), f]);
  }
// `CAIRN_BENCH_AGENTS=pi,cline` measures only those agents (and no corpus), when working on their readers.
const only = process.env["CAIRN_BENCH_AGENTS"]?.split(",");
for (const [agent, files] of [...agents].sort(([a], [b]) => a.localeCompare(b))) {
  if (only && !only.includes(agent)) continue;
  const mb = files.reduce((a, f) => a + statTranscript(f).size, 0) / 1048576;
  // Repeat small sets up to some 20 MB, so the figure is not a timer's noise.
  measure(`${agent} (${files.length} files)`, files, Math.max(1, Math.min(200, Math.round(20 / mb))), baseline);
}

if (only) process.exit(0);
const dir = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"), "parse-corpus");
const target = Number(process.env["CAIRN_BENCH_MB"] ?? 220) * 1_000_000;
const sizes: number[] = [];
for (const s of realisticSizes(2000, 3)) {
  if (sizes.reduce((a, b) => a + b, 0) >= target) break;
  if (s < 60_000_000) sizes.push(s);
}
const t0 = Date.now();
const corpus = generateCorpus(dir, sizes, `parse-${target}`);
console.log(
  `generated corpus: ${corpus.length} files in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s, reused when present)`,
);
measure(
  `generated corpus (${corpus.length} files)`,
  corpus.map((c) => c.path),
  1,
);
