/**
 * One writer per index: a lock file beside the database holding the writer's pid. SQLite alone would keep the
 * data safe, but two indexers interleaving file batches would do all the work twice; the second one waits.
 * A lock left by a process that no longer exists is taken over. The lock sits beside the database's real path, so
 * two paths through symbolic links to one database share one lock.
 */

import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from "node:fs";
import { hostname, tmpdir, userInfo } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

export interface IndexLock {
  release(): void;
}

export class IndexLockedError extends Error {
  override name = "IndexLockedError";
  readonly pid: number;
  readonly lockPath: string;
  constructor(pid: number, lockPath: string) {
    super(`another cairn is indexing this database (pid ${pid}; lock ${lockPath})`);
    this.pid = pid;
    this.lockPath = lockPath;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Where the lock of the database at `dbPath` lives: beside the file the path leads to, through any symbolic links.
 * Creates the database's folder, which a first run on a new machine does not have yet.
 */
export function lockPathFor(dbPath: string): string {
  if (/^postgres(ql)?:\/\//i.test(dbPath)) return teamLockPath(dbPath);
  const abs = resolve(dbPath);
  mkdirSync(dirname(abs), { recursive: true });
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    // No database yet: its folder exists now, and may itself be reached through a link.
    real = join(realpathSync(dirname(abs)), basename(abs));
  }
  return `${real}.index-lock`;
}

/**
 * A team index is shared by machines that each index their own transcripts, so its lock is one per database and
 * machine, kept in this user's temporary folder (the database itself serializes the writes, `store/pg/store.ts`).
 */
function teamLockPath(url: string): string {
  const machine = process.env["CAIRN_MACHINE"] || hostname();
  // node:crypto loads only here: a local index's lock needs no hash, and the module takes a few ms to load.
  const { createHash } = process.getBuiltinModule("node:crypto");
  const key = createHash("sha256")
    .update(`${url.replace(/:[^:@/]*@/, "@")}\0${machine}`)
    .digest("hex")
    .slice(0, 16);
  const dir = join(tmpdir(), `cairn-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `team-${key}.index-lock`);
}

export function tryLock(dbPath: string): IndexLock {
  const lockPath = lockPathFor(dbPath);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(lockPath, "utf8") === String(process.pid)) unlinkSync(lockPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let pid = Number.NaN;
      try {
        pid = Number(readFileSync(lockPath, "utf8"));
      } catch {
        continue; // released between our two calls
      }
      if (Number.isInteger(pid) && pid > 0 && alive(pid) && pid !== process.pid)
        throw new IndexLockedError(pid, lockPath);
      try {
        unlinkSync(lockPath); // stale: its writer is gone
      } catch {
        // someone else took it over first
      }
    }
  }
  throw new Error(`could not take the index lock ${lockPath}`);
}

/** Waits for the lock, polling, up to `timeoutMs`; calls `onWait` once when it has to wait. */
export async function acquireLock(
  dbPath: string,
  timeoutMs: number,
  onWait: (e: IndexLockedError) => void,
): Promise<IndexLock> {
  const start = Date.now();
  let told = false;
  for (;;) {
    try {
      return tryLock(dbPath);
    } catch (error) {
      if (!(error instanceof IndexLockedError) || Date.now() - start >= timeoutMs) throw error;
      if (!told) {
        onWait(error);
        told = true;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
