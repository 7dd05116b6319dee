/**
 * Opening the index only to read it: never a migration, never a write. SQLite reads a WAL database through a
 * shared-memory file beside it (`-shm`); in a folder it may not write (a read-only mount, someone else's index)
 * it cannot make one and refuses to open. Then the index is read from a copy in a temporary folder, and the
 * caller is told so; anything else that keeps it from opening is said plainly.
 */
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { CairnError, errorMessage } from "../../common/errors.ts";
import type { ReadonlyStore } from "../types.ts";
import { type Closable, openStore } from "./store.ts";

export interface ReadonlyIndex {
  store: ReadonlyStore & Closable;
  /** Set when the index was opened in an unusual way the user should know of (a copy), else null. */
  notice: string | null;
}

export function openReadonlyIndex(path: string): ReadonlyIndex {
  if (path !== ":memory:" && !existsSync(path))
    throw new CairnError(
      "no_index",
      `no cairn index at ${path}`,
      "run 'cairn index' first (or pass --db / set CAIRN_DB)",
    );
  try {
    return { store: probe(openStore(path, { readonly: true })), notice: null };
  } catch (error) {
    if (error instanceof CairnError) throw error;
    if (!cannotShare(error) || writable(dirname(path))) throw unreadable(path, error);
    return fromCopy(path);
  }
}

/**
 * Reads something, so that a database SQLite cannot open for reading fails here rather than at the first query.
 * One row of the small settings table: counting the sessions read their whole index, which a cold search at a
 * million events paid for at every start (docs/performance.md).
 */
function probe<T extends ReadonlyStore & Closable>(store: T): T {
  try {
    store.getSetting("schema_probe");
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}

function cannotShare(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^SQLITE_(CANTOPEN|READONLY|IOERR)/.test(code);
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function fromCopy(path: string): ReadonlyIndex {
  const dir = mkdtempSync(join(tmpdir(), "cairn-readonly-"));
  const copy = join(dir, basename(path));
  try {
    copyFileSync(path, copy);
    // A WAL not yet checkpointed holds the newest commits: it travels with the copy.
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const store = probe(openStore(copy, { readonly: true }));
    const mb = (statSync(copy).size / 1048576).toFixed(1);
    return {
      store: {
        ...store,
        close() {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      },
      notice: `the folder of ${path} is read-only, so SQLite cannot share the index there; reading a copy made now (${mb} MB)`,
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): CairnError {
  return new CairnError(
    "index_unavailable",
    `cannot read the index at ${path}: ${errorMessage(error)}`,
    "check that the file and its folder can be read (a WAL database also needs its folder writable, or a copy)",
  );
}
