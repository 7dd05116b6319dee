/**
 * A first run on a new machine, through the real CLI: no data folder yet, `--db` in a folder that does not exist,
 * watch mode, a database that cannot be opened, and a database reached through a symbolic link.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { freshHome, startCairn, until } from "./fresh-machine.ts";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** A fresh home with one real Claude Code transcript where Claude Code keeps them. */
function homeWithTranscript() {
  const fresh = freshHome();
  homes.push(fresh.home);
  const project = join(fresh.home, ".claude", "projects", "-home-me-project");
  mkdirSync(project, { recursive: true });
  copyFileSync(
    realFixture("claude/episodic-memory__large-conversation.jsonl"),
    join(project, "0fae0449-64d3-4788-8622-d3a47d82c14b.jsonl"),
  );
  return fresh;
}

describe("a first run on a new machine", () => {
  it("cairn index creates the data folder, then the database, and leaves no lock", () => {
    const { home, env } = homeWithTranscript();
    const res = cairn(["index", "--json"], { env });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const data = join(home, ".local", "share", "cairn");
    expect(JSON.parse(res.stdout).sessions).toBeGreaterThan(0);
    expect(readdirSync(data).filter((f) => f.endsWith(".index-lock"))).toEqual([]);
  });

  it("cairn alone and cairn index --db in new folders", () => {
    const { home, env } = homeWithTranscript();
    const overview = cairn(["--json"], { env });
    expect(overview.code).toBe(0);
    expect(JSON.parse(overview.stdout).sessions).toBeGreaterThan(0);
    const db = join(home, "new", "nested", "folder", "c.db");
    const index = cairn(["index", "--db", db], { env });
    expect(index.stderr).toBe("");
    expect(index.code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it("cairn index --watch creates the folder too, and stops on Ctrl-C", async () => {
    const { home, env } = homeWithTranscript();
    const db = join(home, "elsewhere", "w.db");
    const run = startCairn(["index", "--watch", "--db", db], env);
    try {
      await until("the first watch run reports", () => run.stdout().includes("indexed 1 file "));
    } finally {
      run.signal("SIGINT");
    }
    const exit = await run.exited;
    expect(run.stderr()).not.toContain("ENOENT");
    expect(exit.code).toBe(130);
    expect(existsSync(`${db}.index-lock`)).toBe(false);
  });

  it("a database that cannot be opened is reported, and leaves no lock behind", () => {
    const { home, env } = homeWithTranscript();
    const db = join(home, "broken.db");
    writeFileSync(db, "this is not a SQLite database, but it is long enough to be read as one's header.\n");
    const res = cairn(["index", "--db", db], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/not a cairn index \(not an SQLite database\)/);
    expect(existsSync(`${db}.index-lock`)).toBe(false);
  });

  it("two paths to one database through a symbolic link share one lock", () => {
    const { home, env } = homeWithTranscript();
    const real = join(home, "data", "c.db");
    expect(cairn(["index", "--db", real], { env }).code).toBe(0);
    // The user's default database is a link to a database kept elsewhere.
    const linked = join(home, ".local", "share", "cairn", "cairn.db");
    mkdirSync(join(linked, ".."), { recursive: true });
    symlinkSync(real, linked);
    // A live process holds the lock taken through the real path.
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      writeFileSync(`${real}.index-lock`, String(holder.pid));
      const res = cairn(["--json"], { env });
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout).index_busy_pid).toBe(holder.pid);
    } finally {
      holder.kill();
    }
  });

  it("--root that does not exist is an error (exit 1, named), not 'indexed 0 files'; nothing is created", () => {
    const { home, env } = freshHome();
    homes.push(home);
    for (const args of [["index"], []]) {
      const res = cairn([...args, "--root", join(home, "typo"), "--root", home], { env });
      expect(res.code).toBe(1);
      expect(res.stdout).toBe("");
      expect(res.stderr).toMatch(
        new RegExp(`^cairn (index|overview): --root ${join(home, "typo")}: no such file or folder\\n$`),
      );
    }
    expect(existsSync(join(home, ".local"))).toBe(false);
  });
});
