/**
 * `npm run clients:refresh [agent...] [-- --version X]`: installs each agent's CLI from the npm registry (newest
 * version that installs, into a cache folder), points it at a fake model server on 127.0.0.1, plays the scripted
 * conversation through the real CLI, and commits what the CLI wrote under test/fixtures/clients/<agent>/<version>/
 * with the truth counted from those files (truth.ts, independent of cairn's readers).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { DRIVERS } from "./agents/index.ts";
import { MATH_JS, TEST_JS } from "./fake/script.ts";
import { playClient } from "./play.ts";
import { refreshEach } from "./run-each.ts";
import { computeTruth } from "./truth.ts";
import { computeUsageTruth } from "./usage-truth.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(REPO, "test", "fixtures", "clients");

async function refresh(name: string, version: string | undefined): Promise<void> {
  const played = await playClient(name, version, {
    // Fixed paths, so the transcripts need no scrubbing and stay comparable between refreshes.
    root: join("/tmp", "cairn-clients", name),
    files: { "math.js": MATH_JS, "test.js": TEST_JS },
    play: (driver, ctx) => driver.run(ctx),
  });
  const { driver, home, kept, sidecars } = played;
  const out = join(FIXTURES, driver.name, played.version);
  rmSync(out, { recursive: true, force: true });
  for (const f of kept) {
    mkdirSync(dirname(join(out, "home", f)), { recursive: true });
    cpSync(join(home, f), join(out, "home", f));
  }
  foldDatabases(out, kept);
  const usage = computeUsageTruth(driver.name, join(out, "home"));
  const truth = { ...computeTruth(driver.name, join(out, "home")), ...(usage ? { usage } : {}) };
  writeFileSync(
    join(out, "truth.json"),
    `${JSON.stringify({ agent: driver.name, package: driver.pkg, version: played.version, ...truth, ...(sidecars.length > 0 ? { sidecars } : {}) }, null, 2)}\n`,
  );
  process.stderr.write(`[${driver.name}] → ${relative(REPO, out)}; truth: ${JSON.stringify(truth)}\n`);
}

/**
 * An SQLite database the CLI left in WAL mode is committed as one file: its log is folded in by SQLite itself
 * (checkpoint, then the rollback-journal mode), so every row the CLI wrote is there, no megabytes of stale log
 * frames are, and reading the fixture in place never touches a shared-memory file.
 */
function foldDatabases(out: string, kept: string[]): void {
  for (const rel of kept.filter((f) => /\.(db|sqlite)$/.test(f))) {
    const path = join(out, "home", rel);
    const db = new Database(path);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.pragma("journal_mode = DELETE");
    db.close();
    for (const side of ["-wal", "-shm"]) rmSync(`${path}${side}`, { force: true });
  }
}

await refreshEach(
  process.argv.slice(2),
  DRIVERS.map((d) => d.name),
  refresh,
);
