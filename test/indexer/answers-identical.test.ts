/**
 * Work on the indexer's speed (issue 20) must not change what the index answers. The built `cairn index` indexes
 * every agent's own CLI transcripts (a fresh HOME, found by its default roots) and then the real transcripts (an
 * explicit root, into the same index); the answers read back through the store and the search command are
 * compared with `answers-golden.json`, written by the indexer before that work. The golden file holds a digest per
 * session and section, so a difference names the session and what differs; `CAIRN_WRITE_ANSWERS=1` rewrites it
 * (only for a deliberate change of answers, said in the commit, or when a client fixture is refreshed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { clientsHome, indexAnswers } from "../helpers/index-answers.ts";
import { REPO, realFixturesDir } from "../helpers/transcripts.ts";

const GOLDEN = join(REPO, "test/indexer/answers-golden.json");
const home = mkdtempSync(join(tmpdir(), "cairn-answers-"));
const db = join(home, "index.db");
const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
afterAll(() => rmSync(home, { recursive: true, force: true }));
const real = realFixturesDir();

let got: Record<string, string> = {};
beforeAll(() => {
  clientsHome(home);
  for (const roots of [[], [real]]) {
    const r = cairn(["index", "--db", db, ...roots], { env });
    expect(r.code, r.stderr).toBe(0);
  }
  got = indexAnswers(db, { home, real, env });
  if (process.env["CAIRN_WRITE_ANSWERS"] === "1") writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
}, 300_000);

describe("the index's answers", () => {
  it("are the ones the indexer gave before its speed work", () => {
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, string>;
    expect(Object.keys(got).length).toBeGreaterThan(40);
    expect(got).toEqual(golden);
  });
});
