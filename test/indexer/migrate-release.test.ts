/**
 * An index made by the previous release opens with this one, migrates in place and then answers every question as
 * an index made by this release of the same transcripts does: each agent's own CLI files and the real transcripts,
 * read by the release's built command and then brought up to date by this one's (which migrates it and reads again
 * what its readers now read differently). The release is built from this repository's history (`git archive`,
 * its bundle alone); a clone without that commit fails here rather than skipping.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/sqlite/schema.ts";
import { cairn } from "../helpers/cli.ts";
import { clientsHome, indexAnswers } from "../helpers/index-answers.ts";
import { REPO, realFixturesDir } from "../helpers/transcripts.ts";

/** The main branch as last landed before the index's layout changed (schema 12). */
const RELEASE = "df6206617934af543ef034acf9d1457055cd318a";

const root = mkdtempSync(join(tmpdir(), "cairn-migrate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const env = { HOME: home, XDG_DATA_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config"), TZ: "UTC" };
const real = realFixturesDir();
const migrated = join(root, "migrated.db");
const fresh = join(root, "fresh.db");

/** The release's command, built from the repository's history with this checkout's dependencies. */
function buildRelease(): string {
  const dir = join(root, "release");
  mkdirSync(dir);
  const tar = execFileSync("git", ["-C", REPO, "archive", RELEASE], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  execFileSync(process.execPath, [join(dir, "scripts/build-cli.ts")], { cwd: dir, stdio: "pipe" });
  return join(dir, "dist/bundle/cairn.js");
}

function releaseIndex(cli: string, roots: string[]): void {
  const r = spawnSync(process.execPath, [cli, "index", "--db", migrated, ...roots], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
}

beforeAll(() => {
  mkdirSync(home);
  clientsHome(home);
  const cli = buildRelease();
  for (const roots of [[], [real]]) releaseIndex(cli, roots);
  cpSync(migrated, join(root, "release.db"));
  for (const db of [migrated, fresh])
    for (const roots of [[], [real]]) {
      const r = cairn(["index", "--db", db, ...roots], { env });
      expect(r.code, r.stderr).toBe(0);
    }
}, 600_000);

describe("an index made by the previous release", () => {
  it("is of an older schema, and is migrated to this release's", () => {
    const version = (db: string) => {
      const d = new Database(db, { readonly: true });
      try {
        return d.pragma("user_version", { simple: true }) as number;
      } finally {
        d.close();
      }
    };
    const latest = MIGRATIONS.at(-1)!.version;
    expect(version(join(root, "release.db"))).toBeLessThan(latest);
    expect(version(migrated)).toBe(latest);
  });

  it("has its rows converted to the compressed layout, as many as a fresh index holds compressed", () => {
    const compressed = (db: string) => {
      const d = new Database(db, { readonly: true });
      try {
        return d
          .prepare("SELECT count(*) FROM session_events WHERE typeof(text) = 'blob' OR typeof(meta) = 'blob'")
          .pluck()
          .get() as number;
      } finally {
        d.close();
      }
    };
    expect(compressed(join(root, "release.db"))).toBe(0);
    expect(compressed(migrated)).toBeGreaterThan(0);
    expect(compressed(migrated)).toBe(compressed(fresh));
  });

  it("answers, once migrated, as a fresh index of the same transcripts", () => {
    const where = { home, real, env };
    const got = indexAnswers(migrated, where);
    expect(Object.keys(got).length).toBeGreaterThan(40);
    expect(got).toEqual(indexAnswers(fresh, where));
  });

  it("reports the same usage", () => {
    for (const by of ["day", "session", "model"]) {
      const report = (db: string) =>
        JSON.parse(cairn(["usage", "--by", by, "--json", "--no-index", "--db", db], { env }).stdout);
      expect(report(migrated), by).toEqual(report(fresh));
    }
  });
});
