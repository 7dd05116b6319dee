/**
 * A `--db` that cannot be an index — a folder, a file that is not SQLite, a device, a path under a file, a folder
 * nothing can be created in — is one line saying what is wrong and a hint, exit 1, for reading and for indexing:
 * never SQLite's "disk I/O error", "unable to open database file", a raw ENOENT or a stack.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-bad-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const folder = join(dir, "a-folder");
mkdirSync(folder);
const text = join(dir, "notes.db");
writeFileSync(text, "these are notes, not an index\n");
const ROOT = join(REPO, "test/fixtures/clients/pi/0.87.1/home");

const RAW = /disk I\/O error|unable to open database|file is not a database|E[A-Z]{3,}:|SQLITE_|\n\s+at /;

describe("a --db that cannot be an index", () => {
  it.each([
    ["a folder", folder, /the index path .*a-folder is a folder, not an index file/],
    ["a file that is not SQLite", text, /notes\.db is not a cairn index \(not an SQLite database\)/],
    ["a device", "/dev/null", /the index path \/dev\/null is not a regular file/],
  ])("%s: one line and a hint, reading or indexing", (_what, db, said) => {
    for (const args of [
      ["sessions", "--db", db],
      ["search", "anything", "--db", db],
      ["index", "--root", ROOT, "--db", db],
      ["--db", db],
    ]) {
      const r = cairn(args);
      expect(r.code, args.join(" ")).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines[0]).toMatch(said);
      expect(lines.slice(1)).toEqual([expect.stringMatching(/^hint: point --db \(or CAIRN_DB\) at /)]);
      expect(r.stderr).not.toMatch(RAW);
    }
    const json = cairn(["sessions", "--json", "--db", db]);
    expect(JSON.parse(json.stdout).error.code).toBe("index_unavailable");
  });

  it.each([
    [
      "under a file",
      join(text, "sub", "cairn.db"),
      /cannot create the index at .*: .*notes\.db is a file, not a folder/,
    ],
    ["where no file can be created", "/proc/cairn-test.db", /cannot write the index at \/proc\/cairn-test\.db: /],
  ])("a path %s: indexing says it cannot create the index there", (_what, db, said) => {
    const r = cairn(["index", "--root", ROOT, "--db", db]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toMatch(said);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^hint: /)]);
    expect(r.stderr).not.toMatch(RAW);
  });

  it("a path in a folder that does not exist yet: reading says there is no index; indexing creates it", () => {
    const db = join(dir, "new", "deeper", "cairn.db");
    const read = cairn(["sessions", "--db", db]);
    expect(read.code).toBe(1);
    expect(read.stderr).toContain(`no cairn index at ${db}`);
    expect(cairn(["index", "--root", ROOT, "--db", db]).code).toBe(0);
    expect(cairn(["sessions", "--db", db]).code).toBe(0);
  });
});
