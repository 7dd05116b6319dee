/**
 * Faults: a child indexer killed with SIGKILL at random moments leaves a database that opens, passes
 * integrity_check and converges to a clean index on the next run; two indexers on one database never corrupt it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateCorpus, realisticSizes } from "../../bench/corpus.ts";
import { lockPathFor } from "../../src/indexer/lock.ts";
import { CLI, cairn } from "../helpers/cli.ts";
import { dumpIndex, firstDifference, integrityCheck } from "../helpers/db-dump.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// ~25 MB of transcripts shaped like real use, so an index run takes long enough to be interrupted anywhere.
const sizes = realisticSizes(120, 11).map((s) => Math.min(s, 2_500_000));
const corpus = join(dir, "corpus");
generateCorpus(corpus, sizes, "faults");

function runIndexer(db: string): { done: Promise<number | null>; kill: () => void } {
  const child = spawn(process.execPath, [CLI, "index", "--root", corpus, "--db", db, "--json"], { stdio: "ignore" });
  return {
    done: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    kill: () => child.kill("SIGKILL"),
  };
}

/** A seeded PRNG, so the kill points are the same on every run of the test. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

describe("faults", () => {
  const clean = join(dir, "clean.db");
  let cleanDump = "";

  it("a clean index of the corpus", () => {
    const res = cairn(["index", "--root", corpus, "--db", clean, "--json"]);
    expect(res.code).toBe(0);
    cleanDump = dumpIndex(clean);
  }, 180_000); // ~25 MB through the real CLI: seconds alone, minutes on a busy shared machine

  it("kill -9 at random points: the database stays sound and converges to the clean index", async () => {
    const random = rng(20261122);
    let kills = 0;
    const killAt = async (db: string, ms: number) => {
      const run = runIndexer(db);
      const early = await Promise.race([
        run.done.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
      ]);
      if (!early) {
        run.kill();
        kills++;
      }
      await run.done;
      expect(integrityCheck(db)).toBe("ok");
    };
    for (let trial = 0; trial < 8; trial++) {
      const db = join(dir, `killed-${trial}.db`);
      // One kill anywhere in a first run, a second one while it resumes from what the first left.
      await killAt(db, Math.floor(random() * 1400));
      await killAt(db, Math.floor(random() * 700));
      const final = cairn(["index", "--root", corpus, "--db", db, "--json"]);
      expect(final.code).toBe(0);
      expect(integrityCheck(db)).toBe("ok");
      expect(firstDifference(dumpIndex(db), cleanDump), `trial ${trial}`).toBeNull();
    }
    expect(kills).toBeGreaterThanOrEqual(10);
  }, 600_000);

  it("two indexers on one database: the second waits, both succeed, the result is the clean index", async () => {
    const db = join(dir, "two.db");
    const a = runIndexer(db);
    const b = runIndexer(db);
    expect(await a.done).toBe(0);
    expect(await b.done).toBe(0);
    expect(integrityCheck(db)).toBe("ok");
    expect(firstDifference(dumpIndex(db), cleanDump)).toBeNull();
  }, 120_000);

  it("the waiting indexer says whom it waits for", async () => {
    const db = join(dir, "wait.db");
    const a = runIndexer(db);
    // the second starts once the first holds the lock (a fixed pause lost that race on a loaded machine)
    const lock = lockPathFor(db);
    while (!existsSync(lock)) await new Promise((r) => setTimeout(r, 10));
    const b = cairn(["index", "--root", corpus, "--db", db]);
    await a.done;
    expect(b.code).toBe(0);
    expect(b.stderr).toMatch(/waiting for pid \d+, which is indexing/);
  }, 120_000);
});
