/**
 * The SQLite store (better-sqlite3): WAL, foreign keys, numbered migrations, sqlite-vec loaded when a statement first
 * needs its functions. `openStore(":memory:")` is the in-memory twin used by tests; it runs the same SQL.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { CairnError } from "../../common/errors.ts";
import type { SessionEvent } from "../../topology/types.ts";
import { ftsColumns } from "../shared/fts-text.ts";
import { isPacked, packMeta } from "../shared/packed-meta.ts";
import { decodeStored } from "../shared/text-codec.ts";
import type { ReadonlyStore, Store } from "../types.ts";
import { createBundleStore } from "./bundles.ts";
import { createCheckpoints } from "./checkpoints.ts";
import { registerCodecFunctions } from "./codec-sql.ts";
import { createRowCompaction } from "./compact-rows.ts";
import { createDeferredIndexes } from "./deferred.ts";
import { registerMetaFunctions } from "./meta-runs.ts";
import { createPurge } from "./purge.ts";
import { createReader } from "./read.ts";
import { MIGRATIONS } from "./schema.ts";
import { createSearch } from "./search.ts";
import { createThreadReads } from "./threads.ts";
import { createWriter } from "./write.ts";

// sqlite-vec's CommonJS entry: its ES module imports node:process, which costs a few ms to load as a module.
const require = createRequire(import.meta.url);
// better-sqlite3 is CommonJS: as an ES import Node also scans its entry for export names, about 2 ms of every
// command that opens the index (docs/performance.md, fifth round).
const Database = require("better-sqlite3") as typeof BetterSqlite3;

/** The log's size at which a checkpoint copies it back (8,192 pages of 4 KB, as before pages were 8 KB). */
const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

export interface Closable {
  close(): void;
}

export interface OpenStoreOptions {
  /** Open without writing (no migrations); fails if the database has never been created. */
  readonly?: boolean;
  /** How long to wait for another writer's lock, in ms. */
  busyTimeoutMs?: number;
}

export function openStore(path: string, opts: OpenStoreOptions & { readonly: true }): ReadonlyStore & Closable;
export function openStore(path: string, opts?: OpenStoreOptions): Store;
export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  if (path !== ":memory:" && !opts.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  // Only a vector search (and an old migration) calls sqlite-vec: indexing with nothing new, a lexical search or a
  // timeline start without loading it (docs/performance.md).
  let vecLoaded = false;
  const vec = () => {
    if (vecLoaded) return;
    (require("sqlite-vec") as typeof import("sqlite-vec")).load(db);
    vecLoaded = true;
  };
  try {
    registerCodecFunctions(db);
    registerMetaFunctions(db);
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 10_000}`);
    if (!opts.readonly) {
      // A new index's pages are 8 KB (SQLite's default is 4): at 4 KB an event's row often did not fit what its
      // neighbours left of a page, or spilled to overflow pages (pi corpus: 15.7 -> 10.0 MB left unused in the
      // event table's pages, overflow 24.6 -> 17.7 MB), and each commit wrote more pages. Writer alone 3.07 ->
      // 2.74 s CPU; searches at a million events as fast (docs/performance.md). An existing index keeps its pages.
      db.pragma("page_size = 8192");
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    // A read-only handle starts with SQLite's own 2 MB cache and reads the file by read() calls: most are one
    // command's, and each page new to a process costs a page fault, a mapped page's or a larger cache's. It maps the
    // file once it proves long-lived (`mapWhenLongLived`, read.ts).
    db.pragma(opts.readonly ? "cache_size = -2000" : "cache_size = -16384");
    // The writer keeps temporary data in files: with temp_store = MEMORY SQLite's sorter never spills, so building
    // the deferred indexes of a first index (deferred.ts) held each whole index's keys in memory at once, the
    // run's peak at 1 GB (about 95 MB above the writes' own). In files it sorts cache_size at a time, as fast
    // (docs/performance.md, "Peak memory at 1 GB"). Small temporary tables stay in the page cache either way.
    db.pragma(opts.readonly ? "temp_store = MEMORY" : "temp_store = FILE");
    // Fewer, larger checkpoints: each one copies pages back into the database and syncs.
    if (!opts.readonly)
      db.pragma(
        `wal_autocheckpoint = ${Math.round(WAL_CHECKPOINT_BYTES / (db.pragma("page_size", { simple: true }) as number))}`,
      );
    if (!opts.readonly) migrate(db, vec);
    else {
      const version = db.pragma("user_version", { simple: true }) as number;
      // Versions, not a count: a branch may land a later migration before an earlier one.
      const newest = MIGRATIONS.at(-1)!.version;
      if (version < newest)
        throw new CairnError(
          "index_unavailable",
          `the index at ${path} is older than this cairn`,
          "run 'cairn index' to upgrade it",
        );
      if (version > newest)
        throw new CairnError(
          "index_unavailable",
          `the index at ${path} was written by a newer cairn (schema ${version})`,
          "upgrade cairn",
        );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const writer = createWriter(db);
  const reader = createReader(db);
  const search = createSearch(db);
  const checkpoints = createCheckpoints(db);
  const deferred = createDeferredIndexes(db);
  const store: Store = {
    path,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    beginGroup: () => {
      if (db.inTransaction) return;
      db.exec("BEGIN IMMEDIATE");
      deferred.atGroupStart();
    },
    commitGroup: () => {
      if (db.inTransaction) db.exec("COMMIT");
    },
    rollbackGroup: () => {
      if (db.inTransaction) db.exec("ROLLBACK");
    },
    inGroup: () => db.inTransaction,
    ...writer,
    ...reader,
    searchEvents: search.searchEvents,
    warmSearch: search.warmSearch,
    ...checkpoints,
    ...createThreadReads(db),
    ...createBundleStore(db, vec),
    ...createPurge(db),
    ...createRowCompaction(db),
    close: () => {
      try {
        deferred.ensure();
      } catch {
        // Another writer held the lock too long: the indexes stay listed in settings for the next group to build.
      } finally {
        db.close();
      }
    },
  };
  if (opts.readonly) return store;
  // Every method but the indexer's own builds the indexes a first index left out (deferred.ts) first.
  const record = store as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(record))
    if (typeof fn === "function" && !INDEXING_METHODS.has(name))
      record[name] = (...args: unknown[]) => {
        deferred.ensure();
        return (fn as (...a: unknown[]) => unknown)(...args);
      };
  return store;
}

/** What an index run calls while it writes: none of these reads the indexes left out of a first index. */
const INDEXING_METHODS = new Set([
  "transaction",
  "beginGroup",
  "commitGroup",
  "rollbackGroup",
  "inGroup",
  "writePrepared",
  "writeBatch",
  "refreshSessions",
  "getFileState",
  "putFileState",
  "fileStamps",
  "markGone",
  "goneFiles",
  "moveFile",
  "deleteFile",
  "pruneGone",
  "sessionCount",
  "compactPending",
  "compactRows",
  "close",
]);

/**
 * The FTS columns of a stored event, for a migration that refills the index: one call per column, computed once
 * per row (the columns of a row are asked for in turn).
 */
function registerFtsFunction(db: BetterSqlite3.Database): void {
  let last: { rowid: number; cols: string[] } | null = null;
  db.function(
    "cairn_fts",
    { deterministic: true },
    (rowid: unknown, col: unknown, event_type: unknown, text: unknown, tool_name, provider, status) => {
      if (last === null || last.rowid !== Number(rowid)) {
        const c = ftsColumns({
          event_type: String(event_type) as SessionEvent["event_type"],
          text: decodeStored((text as string | Uint8Array | null) ?? ""),
          tool_name: (tool_name as string | null) ?? null,
          provider: String(provider) as SessionEvent["provider"],
          status: (status as string | null) ?? null,
        });
        last = { rowid: Number(rowid), cols: [c.text, c.idents, c.facets, c.stems] };
      }
      return last!.cols[Number(col)] ?? "";
    },
  );
}

function migrate(db: BetterSqlite3.Database, vec: () => void): void {
  registerFtsFunction(db);
  // Written for rows stored plain (migration 11 ran before any was compressed); a compressed one is left as it is.
  db.function("cairn_packed_meta", { deterministic: true }, (text: unknown, meta: unknown) =>
    typeof meta === "string" && typeof text === "string" && !isPacked(meta)
      ? packMeta(text, JSON.parse(meta) as Record<string, unknown>)
      : null,
  );
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const done = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as Array<{ version: number }>).map((r) => r.version),
  );
  const newest = MIGRATIONS.reduce((a, m) => Math.max(a, m.version), 0);
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > newest)
    throw new Error(`the index was written by a newer cairn (schema ${current}, this one knows ${newest})`);
  for (const m of MIGRATIONS) {
    if (done.has(m.version)) continue;
    // Migration 6 made a vec0 table that a later one drops: both need sqlite-vec's module.
    vec();
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
