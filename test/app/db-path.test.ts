/** Where the index lives when nothing names it: never a path relative to the current folder. */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { expect, it } from "vitest";
import { dbPathFor } from "../../src/app/open.ts";

it("--db, then CAIRN_DB, then XDG_DATA_HOME, then the home folder; an empty HOME falls back to the user's home", () => {
  expect(dbPathFor("/x/a.db", { CAIRN_DB: "/y/b.db" })).toBe("/x/a.db");
  expect(dbPathFor(undefined, { CAIRN_DB: "/y/b.db", XDG_DATA_HOME: "/d" })).toBe("/y/b.db");
  expect(dbPathFor(undefined, { XDG_DATA_HOME: "/d", HOME: "/h" })).toBe("/d/cairn/cairn.db");
  expect(dbPathFor(undefined, { HOME: "/h" })).toBe("/h/.local/share/cairn/cairn.db");
  const empty = dbPathFor(undefined, { HOME: "" });
  expect(isAbsolute(empty)).toBe(true);
  expect(empty).toBe(join(homedir(), ".local", "share", "cairn", "cairn.db"));
});
