/**
 * Reads a transcript kept in an SQLite database (OpenCode and Kilo Code keep every session in one): opened
 * read-only, never written; the tables tell the format, and the reader's query gives the rows it parses, each row
 * one JSON line, in bounded batches. The database is read whole whenever it changes.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { errorMessage } from "../common/errors.ts";
import type { TopologyBatch } from "../topology/normalizer-state.ts";
import { databaseQuery, parseTranscript, startDatabaseTranscript } from "../topology/transcript.ts";
import type { Problem } from "../topology/types.ts";
import type { ReadChunk, ReadFileResult } from "./read-types.ts";

// CommonJS: required, not imported, as the store does (store/sqlite/store.ts).
const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;

const ROWS_PER_BATCH = 2000;

/** The first bytes of every SQLite 3 database. */
export function isSqliteHeader(buf: Buffer): boolean {
  return buf.subarray(0, 16).toString("latin1") === "SQLite format 3\0";
}

export function* readDatabase(path: string, size: number): Generator<ReadChunk, ReadFileResult> {
  let db: BetterSqlite3.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    return yield* failed(path, size, `cannot open the database (${errorMessage(error)})`);
  }
  try {
    let tables: string[];
    try {
      // A writer holds the database for a moment at a time; wait for it rather than report it busy.
      db.pragma("busy_timeout = 5000");
      const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      tables = rows.map((t) => t.name);
    } catch (error) {
      return yield* failed(path, size, `cannot read the database (${errorMessage(error)})`);
    }
    let state = startDatabaseTranscript(path, tables);
    if (state === null) return { state: null, offset: 0, line: 1, pendingBytes: size, bytesRead: 0 };
    const query = databaseQuery(state)!;
    let line = 1;
    let lines: Array<{ text: string; line: number }> = [];
    // The offset is the file's size only once every row is in: a read cut short starts over.
    const chunk = (last: boolean): ReadChunk => {
      const parsed = parseTranscript(lines, state!);
      state = parsed.state;
      lines = [];
      return { batch: parsed.batch, problems: parsed.problems, at: { offset: last ? size : 0, line, state } };
    };
    const rows = db.prepare(query).iterate();
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = rows.next();
      } catch (error) {
        // A newer schema the query no longer fits: what was read stands, and the failure is reported.
        yield chunk(false);
        const problem = problemAt(path, line, `database query failed (${errorMessage(error)})`);
        yield { batch: emptyBatch(), problems: [problem], at: { offset: size, line, state } };
        return { state, offset: size, line, pendingBytes: 0, bytesRead: size };
      }
      if (next.done) break;
      lines.push({ text: JSON.stringify(next.value), line: line++ });
      if (lines.length >= ROWS_PER_BATCH) yield chunk(false);
    }
    yield chunk(true);
    return { state, offset: size, line, pendingBytes: 0, bytesRead: size };
  } finally {
    db.close();
  }
}

function* failed(path: string, size: number, reason: string): Generator<ReadChunk, ReadFileResult> {
  yield { batch: emptyBatch(), problems: [problemAt(path, 1, reason)], at: { offset: 0, line: 1, state: null } };
  return { state: null, offset: 0, line: 1, pendingBytes: size, bytesRead: 0 };
}

function emptyBatch(): TopologyBatch {
  return { sessions: [], events: [], edges: [], entities: [], usage: [] };
}

function problemAt(path: string, line: number, reason: string): Problem {
  return { source_file: path, source_line: line, reason, excerpt: "" };
}
