import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";

export interface TempIndex {
  /** A temporary folder holding the database, fit to serve as HOME too. */
  dir: string;
  db: string;
  remove(): void;
}

/** Indexes `paths` in this thread into a database in a new temporary folder. */
export function tempIndex(prefix: string, paths: string[]): TempIndex {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, "cairn.db");
  const store = openStore(db);
  try {
    indexPaths({ store, paths, parallel: false });
  } finally {
    store.close();
  }
  return { dir, db, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` on the index at `db`, opened for it and closed after. */
export function withStore<T>(db: string, fn: (s: Store) => T): T {
  const store = openStore(db);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}
