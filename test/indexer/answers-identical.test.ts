/**
 * Work on the indexer's speed (issue 20) must not change what the index answers. The built `cairn index` indexes
 * every agent's own CLI transcripts (a fresh HOME, found by its default roots) and then the real transcripts (an
 * explicit root, into the same index); the answers read back through the store and the search command are
 * compared with `answers-golden.json`, written by the indexer before that work. The golden file holds a digest per
 * session and section, so a difference names the session and what differs; `CAIRN_WRITE_ANSWERS=1` rewrites it
 * (only for a deliberate change of answers, said in the commit, or when a client fixture is refreshed).
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { cairn } from "../helpers/cli.ts";
import { REPO, realFixturesDir } from "../helpers/transcripts.ts";

const GOLDEN = join(REPO, "test/indexer/answers-golden.json");
const CLIENTS = join(REPO, "test", "fixtures", "clients");
const home = mkdtempSync(join(tmpdir(), "cairn-answers-"));
const db = join(home, "index.db");
const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Queries of every kind the search command takes, over words the fixtures hold. */
const QUERIES = [
  "test",
  "error",
  "decision:",
  "tool:bash",
  "kind:tool_result",
  "file:src",
  "cmd:git",
  "theme selector",
  "TASK-C run the test once more",
  "provider:pi failed",
  "test:fail",
  "resume:",
];

const real = realFixturesDir();
/** Paths as they would be anywhere: the temp HOME and the real fixtures' folder named, not spelled. */
const placeless = (_key: string, v: unknown) =>
  typeof v === "string" ? v.split(home).join("~").split(real).join("<real>") : v;
const digest = (value: unknown): string =>
  createHash("sha256").update(JSON.stringify(value, placeless)).digest("hex").slice(0, 16);

function answers(): Record<string, string> {
  const out: Record<string, string> = {};
  const store = openStore(db, { readonly: true });
  try {
    const sessions = store.listSessions({ limit: 100_000 });
    out["sessions"] = digest(sessions.map((s) => ({ ...s })).sort((a, b) => a.session_id.localeCompare(b.session_id)));
    for (const s of sessions) {
      const events = store.sessionEvents(s.session_id);
      out[`${s.session_id} events`] = digest(events);
      out[`${s.session_id} edges`] = digest(
        events.map((e) => [store.edgesFrom(e.event_id), store.edgesTo(e.event_id)]),
      );
      const carried = store.sessionBundles(s.session_id);
      const bundles = carried.bundles.map((b) => ({ ...b, code: b.code ? b.code.toString("base64") : null }));
      out[`${s.session_id} bundles`] = digest({ ...carried, bundles });
    }
    out["problems"] = digest(store.problems(100_000));
    out["counts"] = digest(store.counts());
  } finally {
    store.close();
  }
  for (const q of QUERIES)
    for (const mode of ["lexical", "hybrid"]) {
      const r = cairn(["search", q, "--json", "--limit", "25", "--mode", mode, "--db", db], { env });
      out[`search ${mode} ${q}`] = `${r.code} ${digest(r.code === 0 ? JSON.parse(r.stdout) : r.stderr)}`;
    }
  return out;
}

let got: Record<string, string> = {};
beforeAll(() => {
  for (const agent of readdirSync(CLIENTS).sort()) {
    const newest = readdirSync(join(CLIENTS, agent)).sort(compareVersions).at(-1)!;
    cpSync(join(CLIENTS, agent, newest, "home"), home, { recursive: true });
  }
  for (const roots of [[], [real]]) {
    const r = cairn(["index", "--db", db, ...roots], { env });
    expect(r.code, r.stderr).toBe(0);
  }
  got = answers();
  if (process.env["CAIRN_WRITE_ANSWERS"] === "1") writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
}, 300_000);

describe("the index's answers", () => {
  it("are the ones the indexer gave before its speed work", () => {
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, string>;
    expect(Object.keys(got).length).toBeGreaterThan(40);
    expect(got).toEqual(golden);
  });
});
