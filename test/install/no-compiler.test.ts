/**
 * The README's install on a machine that has Node and nothing to build native code with: no Python, no compiler,
 * no Node headers (node-gyp would fetch them from the internet), no `npm_config_nodedir`. `npm ci` must pass and
 * leave a working SQLite with its vector extension, taken from the binaries the packages ship.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-no-compiler-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding only `node`, `npm` and `sh`: what PATH offers the install. */
function bareBin(): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // npm's own script, wherever this machine's npm lives (a link in /usr/bin, a Node install's bin/).
  const npmCli = realpathSync(spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim());
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync(npmCli, join(bin, "npm"));
  symlinkSync("/bin/sh", join(bin, "sh"));
  return bin;
}

it("npm ci passes with only Node on PATH, and SQLite with sqlite-vec loads from the shipped binaries", () => {
  const work = join(dir, "clone");
  mkdirSync(work);
  for (const f of ["package.json", "package-lock.json", ".npmrc"]) cpSync(join(REPO, f), join(work, f));
  const bin = bareBin();
  const tools = spawnSync(join(bin, "sh"), ["-c", "command -v python3 || command -v cc || command -v make"], {
    env: { PATH: bin },
  });
  expect(tools.status).not.toBe(0);
  const env: Record<string, string> = {
    PATH: bin,
    HOME: join(dir, "home"),
    // The machine's package cache, so the packages come from it when they can; the registry otherwise.
    npm_config_cache: process.env["npm_config_cache"] ?? join(homedir(), ".npm"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
  for (const k of ["NODE_EXTRA_CA_CERTS", "npm_config_cafile", "SSL_CERT_FILE"]) {
    const v = process.env[k];
    if (v) env[k] = v;
  }
  const res = spawnSync("npm", ["ci", "--prefer-offline"], { cwd: work, env, encoding: "utf8", timeout: 300_000 });
  expect(res.status, `${res.stdout}\n${res.stderr}`).toBe(0);
  expect(`${res.stdout}${res.stderr}`).not.toMatch(/gyp/);
  expect(existsSync(join(work, "node_modules", "better-sqlite3", "build"))).toBe(false);
  const probe = spawnSync(
    join(bin, "node"),
    [
      "-e",
      `const Db = require("better-sqlite3"); const db = new Db(":memory:");
       db.loadExtension(require("sqlite-vec").getLoadablePath());
       db.exec("create virtual table t using fts5(x)");
       console.log(db.prepare("select vec_version() v").get().v);`,
    ],
    { cwd: work, env, encoding: "utf8" },
  );
  expect(probe.status, probe.stderr).toBe(0);
  expect(probe.stdout).toMatch(/^v\d/);
}, 320_000);
