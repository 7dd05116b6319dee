/**
 * Where the index is and how it is opened. Read mode opens it read-only on first use and never migrates (an index
 * written by an older cairn is reported, not upgraded); until it exists every question says how to make it, and
 * once `cairn index` has made it the next question opens it. Write mode opens it with its migrations.
 */
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { indexWriteError, resolveDbPath } from "../indexer/db-path.ts";
import { isPgUrl } from "../store/pg/url.ts";
import { openReadonlyIndex } from "../store/sqlite/readonly.ts";
import { type Closable, openStore } from "../store/sqlite/store.ts";
import type { ReadonlyStore, Store } from "../store/types.ts";
import { identityFrom } from "./machine.ts";

export type Env = Record<string, string | undefined>;

type TeamStoreModule = typeof import("../store/pg/store.ts");
let teamModule: TeamStoreModule | null = null;

/**
 * Loads the team store (PostgreSQL, a dozen modules and a worker bridge) ahead of a team index's first open, which
 * is synchronous. A command on a SQLite index never loads it (docs/performance.md). The CLI and `createCairn` call
 * this when the index is a `postgres://` one.
 */
export async function loadTeamStore(): Promise<void> {
  teamModule ??= await import("../store/pg/store.ts");
}

/** The team store's module: loaded already, else required now (an in-process caller that opened without waiting). */
function teamStore(): TeamStoreModule {
  if (teamModule) return teamModule;
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  teamModule = createRequire(import.meta.url)(`../store/pg/store${ext}`) as TeamStoreModule;
  return teamModule;
}

/** Whether a `--db` value names a team index on PostgreSQL rather than a SQLite file. */
export function isTeamIndex(db: string): boolean {
  return isPgUrl(db);
}

/**
 * `--db`, then `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db`. A `postgres://` connection string selects the
 * team index on PostgreSQL (`store/pg/store.ts`) for every command.
 */
export function dbPathFor(flag: string | undefined, env: Env): string {
  // an empty HOME is no home: the path would be relative to wherever the command runs
  return resolveDbPath(flag, env, env["HOME"] || homedir());
}

export interface Opener<S> {
  /** The open index; throws a `CairnError` that says what to do when it cannot be opened. */
  get(): S;
  /** What the user should know about how it was opened (a read-only copy), or null. */
  notice(): string | null;
  isOpen(): boolean;
  close(): void;
}

export function readOpener(path: string, env: Env = process.env): Opener<ReadonlyStore & Closable> {
  let open: { store: ReadonlyStore & Closable; notice: string | null } | null = null;
  return {
    get() {
      open ??= isPgUrl(path)
        ? { store: teamStore().openPgStore(path, identityFrom(env), { readonly: true }), notice: null }
        : openReadonlyIndex(path);
      return open.store;
    },
    notice: () => open?.notice ?? null,
    isOpen: () => open !== null,
    close() {
      open?.store.close();
      open = null;
    },
  };
}

/** `busyTimeoutMs`: how long to wait for another process's lock on the index (default: the store's, 10 s). */
export function writeOpener(path: string, env: Env = process.env, busyTimeoutMs?: number): Opener<Store> {
  let store: Store | null = null;
  return {
    get() {
      if (store) return store;
      if (isPgUrl(path)) store = teamStore().openPgStore(path, identityFrom(env));
      else
        try {
          store = openStore(path, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
        } catch (error) {
          throw indexWriteError(path, error);
        }
      return store;
    },
    notice: () => null,
    isOpen: () => store !== null,
    close() {
      store?.close();
      store = null;
    },
  };
}

/** An index opened by the caller (tests, in-memory): used as it is, and closed with the app. */
export function givenOpener<S extends Closable>(store: S): Opener<S> {
  return { get: () => store, notice: () => null, isOpen: () => true, close: () => store.close() };
}
