/**
 * What every app shares: the database path, the opener (read-only, or for writing with its migrations), the
 * notice told once, and the dependencies the index writer needs. `createCairn` and the index command's smaller
 * app (`index-app.ts`) both stand on it, so a run of `cairn index` opens the index by the same rules without
 * loading the read side's modules (search, timeline, secrets, resume: docs/performance.md, fifth round).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CairnError } from "../common/errors.ts";
import { checkIndexPath, commandDbPath } from "../indexer/db-path.ts";
import type { TranscriptRoot } from "../readers/roots.ts";
import { isPgUrl } from "../store/pg/url.ts";
import type { Closable } from "../store/sqlite/store.ts";
import type { ReadonlyStore, Store } from "../store/types.ts";
import type { IndexDeps } from "./indexing.ts";
import { type Env, givenOpener, loadTeamStore, type Opener, readOpener, writeOpener } from "./open.ts";
import type { Exit } from "./shape/shape.ts";

export const CAIRN_MODES = ["read", "write"] as const;
export type CairnMode = (typeof CAIRN_MODES)[number];

export interface CairnOptions {
  /** The database: a path, or absent for `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db`. */
  db?: string;
  /** An index already open (tests, an in-memory index); it is closed with the app. */
  store?: Store;
  env?: Env;
  /** The directory relative paths and "the latest session here" are taken from. */
  cwd?: string;
  /** `read` (default) opens the index read-only and never changes it; `write` can index, embed and record. */
  mode?: CairnMode;
  now?: () => Date;
  /** Told once when the index is opened in a way the user should know of (e.g. a copy of a read-only folder's). */
  onNotice?: (notice: string) => void;
  /** Where the answers go (`shape/shape.ts`): a terminal gets the transcripts' control characters made inert. */
  exit?: Exit;
  /** A person asked for secrets as written: answers are read from the index without the redacting view. */
  reveal?: boolean;
  /** How long a write open waits for another process's lock on the index (a hook cannot wait long). */
  busyTimeoutMs?: number;
}

export interface AppCore {
  readonly env: Env;
  readonly cwd: string;
  readonly mode: CairnMode;
  readonly now: () => Date;
  readonly dbPath: string;
  readonly opener: Opener<ReadonlyStore & Closable>;
  /** The index, opened on first use; tells the notice once. */
  store(): ReadonlyStore & Closable;
  /** The index for writing; throws in read mode. */
  writer(): Store;
  /** Writes other than indexing need an index to write into: they never create an empty one. */
  requireIndex(): void;
  readonly deps: IndexDeps;
  absolute(roots: ReadonlyArray<string | TranscriptRoot>): Array<string | TranscriptRoot>;
}

export function openCore(opts: CairnOptions): AppCore {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const mode = opts.mode ?? "read";
  const now = opts.now ?? (() => new Date());
  const dbPath = opts.store ? opts.store.path : commandDbPath(opts.db, cwd, env);
  if (!opts.store) checkIndexPath(dbPath, mode);
  // A team index opens synchronously on first use: its modules start loading now, so that the first answer (or the
  // CLI, which waits for them) finds them loaded.
  if (!opts.store && isPgUrl(dbPath)) void loadTeamStore().catch(() => undefined);
  const opener: Opener<ReadonlyStore & Closable> = opts.store
    ? givenOpener(opts.store)
    : mode === "write"
      ? writeOpener(dbPath, env, opts.busyTimeoutMs)
      : readOpener(dbPath, env);
  const writer = (): Store => {
    if (mode !== "write") throw new CairnError("failure", "this cairn was opened read-only");
    return opener.get() as Store;
  };
  let told = false;
  const store = () => {
    const s = opener.get();
    const notice = told ? null : opener.notice();
    if (notice) {
      told = true;
      opts.onNotice?.(notice);
    }
    return s;
  };
  const requireIndex = () => {
    if (!opts.store && !opener.isOpen() && dbPath !== ":memory:" && !isPgUrl(dbPath) && !existsSync(dbPath))
      throw new CairnError(
        "no_index",
        `no cairn index at ${dbPath}`,
        "run 'cairn index' first (or pass --db / set CAIRN_DB)",
      );
  };
  return {
    env,
    cwd,
    mode,
    now,
    dbPath,
    opener,
    store,
    writer,
    requireIndex,
    deps: { dbPath, store: writer, env, cwd },
    absolute: (roots) => roots.map((r) => (typeof r === "string" ? resolve(cwd, r) : r)),
  };
}
