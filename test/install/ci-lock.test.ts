/**
 * `.ci/run` on a checkout whose package-lock.json no longer matches package.json: it must stop at the install,
 * before lint and tests, so a lock that would break a user's `npm ci` breaks CI first.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-ci-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(".ci/run fails on a lock file out of step with package.json, before it lints or tests", () => {
  mkdirSync(join(dir, ".ci"));
  for (const f of ["package.json", "package-lock.json", ".npmrc", ".ci/run"]) cpSync(join(REPO, f), join(dir, f));
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    scripts: Record<string, string>;
  };
  pkg.dependencies["left-pad"] = "^1.3.0"; // added to package.json, never installed: the lock lacks it
  pkg.scripts = {}; // were the install to pass, the lint and tests after it stop at once instead of running here
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  const res = spawnSync("bash", [join(dir, ".ci", "run")], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: "false" },
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(res.status).not.toBe(0);
  expect(res.stderr).toMatch(/package\.json and package-lock\.json[^\n]* in sync/);
  expect(res.stderr).toContain("left-pad");
  expect(`${res.stdout}${res.stderr}`).not.toMatch(/Missing script|biome check|vitest/);
});
