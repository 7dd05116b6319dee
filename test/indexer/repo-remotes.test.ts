import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { fsRepoRemotes, memoryRepoRemotes } from "../../src/indexer/repo-remotes.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-repos-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("repository remotes at index time", () => {
  it("names a session's project by its repository's remote, and leaves other sessions their folder's name", () => {
    mkdirSync(join(dir, "t"));
    copyFileSync(join(realFixturesDir(), "claude", "codemie__session-624a4a58.jsonl"), join(dir, "t", "a.jsonl"));
    const store = openStore(":memory:");
    indexPaths({
      store,
      paths: [join(dir, "t")],
      repos: memoryRepoRemotes({ "/Users/user": "github.com/acme/widget" }),
    });
    const [s] = store.listSessions({});
    expect(s).toMatchObject({ cwd: "/Users/user/repo", project: "widget", meta: { repo: "github.com/acme/widget" } });
    const plain = openStore(":memory:");
    indexPaths({ store: plain, paths: [join(dir, "t")], repos: memoryRepoRemotes({}) });
    expect(plain.listSessions({})[0]).toMatchObject({ project: "repo" });
  });

  it("finds the remote from a folder inside a checkout, and through a worktree's .git file", () => {
    const main = join(dir, "main");
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
    mkdirSync(join(main, "pkg", "deep"), { recursive: true });
    writeFileSync(join(main, ".git", "config"), `[remote "origin"]\n\turl = git@github.com:acme/widget.git\n`);
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    const wt = join(dir, "wt");
    mkdirSync(wt);
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    const remotes = fsRepoRemotes();
    expect(remotes.remoteOf(join(main, "pkg", "deep"))).toBe("github.com/acme/widget");
    expect(remotes.remoteOf(wt)).toBe("github.com/acme/widget");
    expect(remotes.remoteOf(dir)).toBeNull();
    expect(remotes.remoteOf("/no/such/folder")).toBeNull();
  });
});
