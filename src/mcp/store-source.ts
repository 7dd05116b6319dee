/**
 * The index as the MCP server sees it: opened read-only on first use and kept open. Read-only means SQLite
 * refuses writes and no migration runs, so serving someone's index never changes it; an index written by an
 * older cairn is reported rather than upgraded. A server started before the index exists keeps answering with
 * that error until `cairn index` creates it, then opens it.
 */
import { existsSync } from "node:fs";
import { openStore } from "../store/sqlite-store.ts";
import type { Store } from "../store/types.ts";

export interface StoreSource {
  /** The open index; throws an Error that says what to do when there is none or it cannot be read. */
  get(): Store;
  close(): void;
}

export function createStoreSource(path: string): StoreSource {
  let store: Store | null = null;
  return {
    get() {
      if (store) return store;
      if (path !== ":memory:" && !existsSync(path))
        throw new Error(`no cairn index at ${path}; run 'cairn index' first (or pass --db / set CAIRN_DB)`);
      store = openStore(path, { readonly: true });
      return store;
    },
    close() {
      store?.close();
      store = null;
    },
  };
}
