/**
 * The bounded search of a folder (HOME) for files of one name, for an agent that writes into each project's folder
 * (Aider's `.aider.chat.history.md`): it finds them in projects a few levels down, and a HOME full of other things
 * (dependencies, hidden folders, the inside of repositories, more folders than it lists) cannot make it walk all.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { searchFiles } from "../../src/indexer/scan.ts";

const NAME = ".aider.chat.history.md";
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function home(files: string[], folders: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-search-"));
  temps.push(dir);
  for (const f of folders) mkdirSync(join(dir, f), { recursive: true });
  for (const f of files) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "# aider chat started at 2025-01-01 10:00:00\n");
  }
  return dir;
}

describe("searchFiles", () => {
  it("finds the file in HOME and in project folders up to the depth, sorted", () => {
    const h = home([NAME, `a/${NAME}`, `code/b/${NAME}`, `src/github.com/me/c/${NAME}`, `1/2/3/4/5/${NAME}`]);
    expect(searchFiles(h, NAME, 4)).toEqual(
      [NAME, `a/${NAME}`, `code/b/${NAME}`, `src/github.com/me/c/${NAME}`].map((f) => join(h, f)).sort(),
    );
  });

  it("enters no hidden, dependency or virtual-environment folder, no repository's inside, no link to a folder", () => {
    const h = home(
      [
        `.cache/p/${NAME}`,
        `p/node_modules/q/${NAME}`,
        `env/lib/${NAME}`,
        `repo/${NAME}`,
        `repo/sub/${NAME}`,
        `other/x/${NAME}`,
      ],
      ["repo/.git"],
    );
    writeFileSync(join(h, "env", "pyvenv.cfg"), "home = /usr/bin\n");
    symlinkSync(join(h, "other"), join(h, "link"));
    expect(searchFiles(h, NAME, 4)).toEqual([join(h, "other", "x", NAME), join(h, "repo", NAME)]);
  });

  it("lists at most `limit` folders, the shallow ones first", () => {
    const wide = Array.from({ length: 50 }, (_, i) => `deep/d${String(i).padStart(2, "0")}/x`);
    const h = home([`top/${NAME}`, `deep/d49/x/${NAME}`], wide);
    // HOME, deep, top, then deep's fifty folders: the file three levels down is past the limit.
    expect(searchFiles(h, NAME, 4, 20)).toEqual([join(h, "top", NAME)]);
    expect(searchFiles(h, NAME, 4)).toEqual([join(h, "deep", "d49", "x", NAME), join(h, "top", NAME)]);
  });
});
