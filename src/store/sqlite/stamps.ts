/**
 * What a `cairn index` that finds nothing to do reads of the index, through a read-only handle of its own: the saved
 * file stamps, the session count it prints, and whether the semantic layer has work queued. The store's own module
 * (`store.ts`) imports every statement module (search, threads, purge, checkpoints, bundles) and opens the
 * index for writing with its migrations: compiling and running that was most of a no-change run above an empty
 * `node` start (docs/performance.md, seventh round). This module is that run's whole store, and the command falls
 * through to the full path whenever the answer here is not "nothing to do".
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { Problem } from "../../topology/types.ts";
import { TOPOLOGY_VERSION } from "../../topology/version.ts";
import type { FileStamp } from "../types.ts";
import { COMPACT_ROWS, MIGRATIONS } from "./schema.ts";

const require = createRequire(import.meta.url);

/** Every file's stamp, from the `source_files_stamps` index alone (migration 10). */
export const FILE_STAMPS_SQL = `SELECT path, size, mtime_ms, inode, gone_at IS NOT NULL AS gone,
  topology_version IS ${TOPOLOGY_VERSION} AS current FROM source_files`;

export type FileStampRow = Omit<FileStamp, "gone" | "current"> & { path: string; gone: number; current: number };

export function fileStampsFrom(rows: readonly FileStampRow[]): Map<string, FileStamp> {
  const out = new Map<string, FileStamp>();
  for (const r of rows)
    out.set(r.path, {
      size: r.size,
      mtime_ms: r.mtime_ms,
      inode: r.inode,
      gone: r.gone === 1,
      current: r.current === 1,
    });
  return out;
}

export interface IndexStamps {
  /** Every source file's stamp, as `Store.fileStamps` gives them. */
  stamps: Map<string, FileStamp>;
  /** As `Store.sessionCount`. */
  sessions: number;
  /** Anything in the bundle queue (events whose bundles are not built yet, or entries whose event is gone). */
  queued: boolean;
  /** The stored embedder setting (under the key given), null when none was chosen. */
  embedderSetting: string | null;
  /** The embedder the stored vectors are from (`vector_state`), null when none. */
  vectorEmbedder: string | null;
  /** A bundle waiting for its vector. */
  pending: boolean;
  /** The first problem lines, as `Store.problems(limit)` lists them; empty unless asked for. */
  problems: Problem[];
}

/**
 * The index's stamps and counts, read in one read transaction; null when a writer would have work before any of
 * it counts (a migration not applied, a schema newer than this cairn, a journal not yet in WAL mode). Throws when
 * the database cannot be opened or read: the caller then takes the full path, which says why. `embedderKey`: the
 * setting that names the chosen embedder (embedders/setting.ts).
 */
export function readIndexStamps(path: string, embedderKey: string, problemLimit = 0): IndexStamps | null {
  const Database = require("better-sqlite3") as typeof BetterSqlite3;
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 1_000 });
  try {
    if (db.pragma("journal_mode", { simple: true }) !== "wal") return null;
    const version = db.pragma("user_version", { simple: true }) as number;
    db.exec("BEGIN");
    const done = new Set(db.prepare("SELECT version FROM schema_migrations").pluck().all() as number[]);
    if (MIGRATIONS.some((m) => !done.has(m.version)) || MIGRATIONS.every((m) => m.version < version)) return null;
    // Rows still to convert to the compressed layout: the full path converts them.
    if (db.prepare("SELECT 1 FROM settings WHERE key = ?").get(COMPACT_ROWS) !== undefined) return null;
    const stamps = fileStampsFrom(db.prepare(FILE_STAMPS_SQL).all() as FileStampRow[]);
    const one = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...args);
    const out: IndexStamps = {
      stamps,
      sessions: one("SELECT count(*) FROM sessions INDEXED BY sessions_updated") as number,
      queued: one("SELECT 1 FROM bundle_queue LIMIT 1") !== undefined,
      embedderSetting: (one("SELECT value FROM settings WHERE key = ?", embedderKey) as string | undefined) ?? null,
      vectorEmbedder: (one("SELECT embedder FROM vector_state WHERE id = 1") as string | undefined) ?? null,
      pending: one("SELECT 1 FROM bundles WHERE embedded = 0 LIMIT 1") !== undefined,
      problems:
        problemLimit > 0
          ? (db
              .prepare("SELECT * FROM problems ORDER BY source_file, source_line LIMIT ?")
              .all(problemLimit) as Problem[])
          : [],
    };
    db.exec("COMMIT");
    return out;
  } finally {
    db.close();
  }
}
