/**
 * A fresh clone of this repository as the README's set-up leaves it, for `COLD_CLONE=1 npm run bench -- cold`:
 * `git clone` of HEAD into a temp folder, this checkout's node_modules linked in place of `npm ci` (which installs
 * the same locked packages and, the project's .npmrc setting ignore-scripts, runs no script of the package's own),
 * then the first `npx cairn`, which builds dist/bundle (scripts/clone-bundle.js). Committed files only: an edit not
 * yet committed is not in the clone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

export interface CloneCheckout {
  /** The clone's `bin/cairn.js`, what `npx cairn` runs there. */
  bin: string;
  /** HEAD's commit, as cloned. */
  commit: string;
  /** Milliseconds of the first run (`--version`), which built the bundle; its stderr line. */
  firstRun: { ms: number; said: string };
  /** Whether tracked files differ from HEAD in the checkout benchmarked (those edits are not in the clone). */
  uncommitted: boolean;
}

export function cloneCheckout(repo: string, into: string): CloneCheckout {
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" }).trim();
  const commit = git("rev-parse", "HEAD");
  // A worktree's own folder holds no repository: clone the one its .git names.
  const source = resolve(repo, git("rev-parse", "--git-common-dir"));
  execFileSync("git", ["clone", "-q", "--no-checkout", existsSync(source) ? source : repo, into]);
  execFileSync("git", ["-C", into, "checkout", "-q", commit]);
  symlinkSync(join(repo, "node_modules"), join(into, "node_modules"));
  const bin = join(into, "bin", "cairn.js");
  const start = performance.now();
  const first = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
  const ms = performance.now() - start;
  if (first.status !== 0) throw new Error(`the clone's first run failed: ${first.stderr}`);
  if (!existsSync(join(into, "dist", "bundle", "cli.js"))) throw new Error("the clone's first run built no bundle");
  const uncommitted = git("status", "--porcelain", "--untracked-files=no") !== "";
  return { bin, commit, firstRun: { ms, said: first.stderr.trim() }, uncommitted };
}
