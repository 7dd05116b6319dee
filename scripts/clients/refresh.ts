/**
 * `npm run clients:refresh [agent...] [-- --version X]`: installs each agent's CLI from the npm registry (newest
 * version that installs, into a cache folder), points it at a fake model server on 127.0.0.1, plays the scripted
 * conversation through the real CLI, and commits what the CLI wrote under test/fixtures/clients/<agent>/<version>/
 * with the truth counted from those files (truth.ts, independent of cairn's readers).
 */
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { DRIVERS } from "./agents/index.ts";
import { makeExec, type RunContext, spawnLines } from "./driver.ts";
import { MATH_JS, TEST_JS } from "./fake/script.ts";
import { startFakeServer } from "./fake/server.ts";
import { installClient } from "./install.ts";
import { computeTruth } from "./truth.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(REPO, "test", "fixtures", "clients");

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

async function refresh(name: string, version: string | undefined): Promise<void> {
  const driver = DRIVERS.find((d) => d.name === name);
  if (!driver) throw new Error(`unknown agent '${name}' (known: ${DRIVERS.map((d) => d.name).join(", ")})`);
  const installed = installClient(driver.name, driver.pkg, version);
  // Fixed paths, so the transcripts need no scrubbing and stay comparable between refreshes.
  const root = join("/tmp", "cairn-clients", driver.name);
  rmSync(root, { recursive: true, force: true });
  const home = join(root, "home");
  const dir = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "math.js"), MATH_JS);
  writeFileSync(join(dir, "test.js"), TEST_JS);
  const log = join(root, "requests.jsonl");
  const server = await startFakeServer({
    protocols: driver.protocols,
    agent: driver.script,
    dir,
    log,
    extra: driver.extra?.bind(driver),
  });
  const binDir = join(installed.prefix, "node_modules", ".bin");
  const env: Record<string, string> = {
    HOME: home,
    PATH: [binDir, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: join(root, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
  };
  mkdirSync(env["TMPDIR"]!, { recursive: true });
  const ctx: RunContext = {
    home,
    dir,
    binDir,
    version: installed.version,
    server,
    exec: makeExec(env, dir, join(root, "run.log")),
    lines: (cmd, args, more) => spawnLines(env, dir, join(root, "run.log"), cmd, args, more),
    log: (m) => process.stderr.write(`[${driver.name}] ${m}\n`),
  };
  try {
    ctx.log(`${driver.pkg}@${installed.version}, fake model at ${server.url}`);
    await driver.run(ctx);
  } finally {
    await server.close();
  }
  const sidecars = listFiles(home).filter((f) => !driver.keep(f) && driver.sidecar?.(f) === true);
  const kept = [...listFiles(home).filter((f) => driver.keep(f)), ...sidecars];
  if (kept.length === sidecars.length) throw new Error(`${driver.name}: the CLI wrote no transcript under ${home}`);
  const out = join(FIXTURES, driver.name, installed.version);
  rmSync(out, { recursive: true, force: true });
  for (const f of kept) {
    mkdirSync(dirname(join(out, "home", f)), { recursive: true });
    cpSync(join(home, f), join(out, "home", f));
  }
  foldDatabases(out, kept);
  const truth = computeTruth(driver.name, join(out, "home"));
  writeFileSync(
    join(out, "truth.json"),
    `${JSON.stringify({ agent: driver.name, package: driver.pkg, version: installed.version, ...truth, ...(sidecars.length > 0 ? { sidecars } : {}) }, null, 2)}\n`,
  );
  ctx.log(`${kept.length} files → ${relative(REPO, out)}; ${server.requests()} model requests (log: ${log})`);
  ctx.log(`truth: ${JSON.stringify(truth)}`);
}

/**
 * An SQLite database the CLI left in WAL mode is committed as one file: its log is folded in by SQLite itself
 * (checkpoint, then the rollback-journal mode), so every row the CLI wrote is there, no megabytes of stale log
 * frames are, and reading the fixture in place never touches a shared-memory file.
 */
function foldDatabases(out: string, kept: string[]): void {
  for (const rel of kept.filter((f) => f.endsWith(".db"))) {
    const path = join(out, "home", rel);
    const db = new Database(path);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.pragma("journal_mode = DELETE");
    db.close();
    for (const side of ["-wal", "-shm"]) rmSync(`${path}${side}`, { force: true });
  }
}

const args = process.argv.slice(2);
const vi = args.indexOf("--version");
const version = vi === -1 ? undefined : args[vi + 1];
const names = args.filter((a, i) => !a.startsWith("--") && (vi === -1 || i !== vi + 1));
const todo = names.length > 0 ? names : DRIVERS.map((d) => d.name);
let failed = 0;
for (const name of todo) {
  try {
    await refresh(name, version);
  } catch (error) {
    failed++;
    process.stderr.write(`[${name}] FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
