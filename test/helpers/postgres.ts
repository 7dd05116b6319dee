/**
 * A real PostgreSQL cluster for one test file: `initdb` in a temporary folder, started on a free loopback port
 * with trust auth for 127.0.0.1 only, stopped and removed after the suite (also when it fails). As root (as here)
 * the folder belongs to `postgres` and the server runs as that user; as anyone else it runs as the caller.
 * `findPgBin()` is null when the server binaries are missing, so suites can skip with the reason printed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PgCluster {
  /** A connection string for the superuser `cairn` on database `cairn`. */
  url: string;
  port: number;
  /** The cluster's data folder (its `postmaster.pid` names the server process). */
  dataDir: string;
  /** A connection string for another database (made by `createDatabase`) or role. */
  urlFor(database: string, user?: string): string;
  /** Runs SQL as the superuser through psql; returns its stdout. */
  psql(sql: string, database?: string): string;
  createDatabase(name: string): string;
  stop(): void;
}

export function findPgBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, "bin") : null;
}

/** Why the PostgreSQL tests cannot run here, or null when they can. */
export function pgSkipReason(): string | null {
  return findPgBin() === null ? "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin" : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `keep`: a folder whose cluster outlives the run (a benchmark's loaded database): made by initdb on first use,
 * started again later, stopped but never removed.
 */
export async function startPg(opts: { keep?: string } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (bin === null) throw new Error(pgSkipReason()!);
  const root = process.getuid?.() === 0;
  if (opts.keep) mkdirSync(opts.keep, { recursive: true });
  const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "cairn-pg-"));
  const data = join(dir, "data");
  const made = existsSync(join(data, "PG_VERSION"));
  const run = (cmd: string, args: string[]) => {
    const full = root ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
    const r = spawnSync(full[0] as string, full[1] as string[], { encoding: "utf8", cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  if (root) {
    const ids = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    const gid = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  let started = false;
  const stop = () => {
    if (started) {
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already gone
      }
      started = false;
    }
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!made)
      run(join(bin, "initdb"), ["-D", data, "-U", "cairn", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "-N"]);
    // Loopback only, no Unix socket in a shared folder; fsync off: a test cluster needs no durability.
    const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=40`;
    run(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "log"), "-o", opts, "-w", "start"]);
    started = true;
    const psql = (sql: string, database = "cairn") =>
      run(join(bin, "psql"), [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "cairn",
        "-d",
        database,
        "-v",
        "ON_ERROR_STOP=1",
        "-qAtc",
        sql,
      ]).trim();
    if (!made) psql("CREATE DATABASE cairn", "postgres");
    const urlFor = (database: string, user = "cairn") => `postgres://${user}@127.0.0.1:${port}/${database}`;
    return {
      url: urlFor("cairn"),
      port,
      dataDir: data,
      urlFor,
      psql,
      createDatabase(name: string) {
        psql(`CREATE DATABASE ${name}`, "postgres");
        return urlFor(name);
      },
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}
