import { accessSync, closeSync, constants, openSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CairnError } from "../common/errors.ts";
import { isPgUrl } from "../store/pg/url.ts";

/** `--db`, then `CAIRN_DB`, then `$XDG_DATA_HOME/cairn/cairn.db` (XDG default `~/.local/share`). */
export function resolveDbPath(flag: string | undefined, env: Record<string, string | undefined>, home: string): string {
  if (flag) return flag;
  if (env["CAIRN_DB"]) return env["CAIRN_DB"];
  const data = env["XDG_DATA_HOME"] || join(home, ".local", "share");
  return join(data, "cairn", "cairn.db");
}

/**
 * The index a command's `--db` names: a path relative to `cwd` (a PostgreSQL URL as given), else as
 * `resolveDbPath` finds it. An empty HOME is no home: the default would be relative to wherever the command runs.
 */
export function commandDbPath(db: string | undefined, cwd: string, env: Record<string, string | undefined>): string {
  return resolveDbPath(db === undefined || isPgUrl(db) ? db : resolve(cwd, db), env, env["HOME"] || homedir());
}

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = "SQLite format 3\0";

/**
 * Refuses, in one line with what to do, an index path SQLite would refuse with "disk I/O error" or "unable to open
 * database file": a folder, a device, a file that is not a database, and (to write) a path whose folder cannot be
 * made. A path with nothing there yet is fine: reading it says there is no index, writing creates it.
 */
export function checkIndexPath(path: string, mode: "read" | "write"): void {
  if (path === ":memory:" || isPgUrl(path)) return;
  const st = statSync(path, { throwIfNoEntry: false });
  if (st?.isDirectory())
    throw new CairnError(
      "index_unavailable",
      `the index path ${path} is a folder, not an index file`,
      `point --db (or CAIRN_DB) at a file, e.g. ${join(path, "cairn.db")}`,
    );
  if (st && !st.isFile())
    throw new CairnError("index_unavailable", `the index path ${path} is not a regular file`, FILE_HINT);
  if (st && st.size > 0 && !isSqlite(path))
    throw new CairnError("index_unavailable", `${path} is not a cairn index (not an SQLite database)`, FILE_HINT);
  if (!st && mode === "write") checkCanCreate(path);
}

const FILE_HINT = "point --db (or CAIRN_DB) at a cairn index, or at a path where none exists yet to create one";
const WRITE_HINT = "point --db (or CAIRN_DB) at a path in a folder you can write";

function isSqlite(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.toString("latin1", 0, n) === SQLITE_HEADER;
  } catch {
    return true; // unreadable: opening it says why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The nearest folder that exists above a new index must be a folder this process may write in. */
function checkCanCreate(path: string): void {
  let dir = dirname(resolve(path));
  for (;;) {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory())
      throw new CairnError(
        "index_unavailable",
        `cannot create the index at ${path}: ${dir} is a file, not a folder`,
        WRITE_HINT,
      );
    if (st) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new CairnError(
      "index_unavailable",
      `cannot create the index at ${path}: no permission to write in ${dir}`,
      WRITE_HINT,
    );
  }
}

/** A system error met while creating or writing the index, said in words ("disk I/O error" says nothing). */
export function indexWriteError(path: string, error: unknown): CairnError {
  if (error instanceof CairnError) return error;
  const code = String((error as { code?: unknown }).code ?? "");
  const why: Record<string, string> = {
    ENOENT: "no file can be created there",
    ENOTDIR: "part of the path is a file, not a folder",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "the file system is read-only",
    ENOSPC: "no space left on the device",
    SQLITE_FULL: "no space left on the device",
    SQLITE_READONLY: "it is read-only",
    SQLITE_CANTOPEN: "SQLite cannot open a file there",
    SQLITE_NOTADB: "it is not an SQLite database",
    SQLITE_IOERR: "the disk refused a read or a write (I/O error)",
  };
  const base = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  const reason = why[base] ?? (error instanceof Error ? error.message : String(error));
  return new CairnError("index_unavailable", `cannot write the index at ${path}: ${reason}`, WRITE_HINT);
}
