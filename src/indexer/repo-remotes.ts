/**
 * Which repository a session's working folder belongs to, read from `<root>/.git/config` on this machine (the
 * nearest folder up from the cwd that has one; a worktree's `.git` file leads to its repository's config). A
 * folder not on this machine, or without a remote, has none. Cached per folder for the run.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { PreparedBatch } from "../store/shared/prepare-batch.ts";
import { projectOfRemote, remoteOfConfig } from "../topology/remote.ts";

export interface RepoRemotes {
  /** The remote key (`github.com/acme/widget`) of the repository holding `cwd`, or null. */
  remoteOf(cwd: string): string | null;
}

export function fsRepoRemotes(): RepoRemotes {
  const cache = new Map<string, string | null>();
  const configOf = (dir: string): string | null => {
    const dotGit = join(dir, ".git");
    if (!existsSync(dotGit)) return null;
    if (statSync(dotGit).isDirectory()) return join(dotGit, "config");
    // a worktree or submodule: `.git` is a file naming the git folder, whose `commondir` leads to the config
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (!gitdir) return null;
    const at = isAbsolute(gitdir) ? gitdir : resolve(dir, gitdir);
    const common = join(at, "commondir");
    return existsSync(common) ? join(resolve(at, readFileSync(common, "utf8").trim()), "config") : join(at, "config");
  };
  const lookup = (dir: string): string | null => {
    const hit = cache.get(dir);
    if (hit !== undefined) return hit;
    let out: string | null;
    try {
      const config = configOf(dir);
      if (config !== null) out = existsSync(config) ? remoteOfConfig(readFileSync(config, "utf8")) : null;
      else out = dirname(dir) === dir ? null : lookup(dirname(dir));
    } catch {
      out = null; // unreadable: the session keeps its folder's name
    }
    cache.set(dir, out);
    return out;
  };
  return { remoteOf: (cwd) => (isAbsolute(cwd) && existsSync(cwd) ? lookup(resolve(cwd)) : null) };
}

/** For tests: remotes by folder (a cwd inside one of them belongs to it). */
export function memoryRepoRemotes(byRoot: Record<string, string>): RepoRemotes {
  return {
    remoteOf(cwd) {
      const root = Object.keys(byRoot)
        .filter((r) => cwd === r || cwd.startsWith(`${r}/`))
        .sort((a, b) => b.length - a.length)[0];
      return root === undefined ? null : byRoot[root]!;
    },
  };
}

/**
 * Sessions whose folder is in a repository with a remote take the repository's name as their project and record
 * its key in meta (`repo`), so one repository checked out under different homes is one project.
 */
export function applyRepoRemotes(sessions: PreparedBatch["sessions"], remotes: RepoRemotes): void {
  for (const s of sessions) {
    const cwd = s["cwd"];
    if (typeof cwd !== "string" || cwd === "") continue;
    const key = remotes.remoteOf(cwd);
    if (key === null) continue;
    s["project"] = projectOfRemote(key);
    const meta = typeof s["meta"] === "string" && s["meta"] !== "" ? JSON.parse(s["meta"] as string) : {};
    s["meta"] = JSON.stringify({ ...meta, repo: key });
  }
}
