/**
 * Ctrl-C through the real CLI: SIGINT sent to a `cairn index` in the middle of reading transcripts, and in the
 * middle of embedding (against a model server that is slow to answer), exits 130 with what was kept, leaves a
 * sound database, and the next run finishes it into exactly the index of one uninterrupted run.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus, realisticSizes } from "../../bench/corpus.ts";
import { cairn } from "../helpers/cli.ts";
import { dumpIndex, firstDifference, integrityCheck } from "../helpers/db-dump.ts";
import { freshEnv, runCairn, startCairn, until } from "./fresh-machine.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-interrupt-"));
const env = freshEnv(dir);
// ~30 MB of transcripts shaped like real use: long enough that a run is still reading when it is told to stop.
const corpus = join(dir, "corpus");
generateCorpus(
  corpus,
  realisticSizes(140, 5).map((s) => Math.min(s, 2_500_000)),
  "interrupt",
);
const clean = join(dir, "clean.db");
let cleanDump = "";

/** An OpenAI-compatible embeddings endpoint that answers `answered` requests, then holds the rest until released. */
function slowEmbeddings(answered: number) {
  let seen = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", async () => {
      seen++;
      if (seen > answered) await released;
      const input = (JSON.parse(body) as { input: string[] }).input;
      const data = input.map((text, index) => ({ index, embedding: vectorOf(text) }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
    });
  });
  return {
    server,
    requests: () => seen,
    release: () => release(),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  };
}

function vectorOf(text: string): number[] {
  const v = [1, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < text.length; i++) v[i % 8]! += (text.charCodeAt(i) % 13) / 13;
  return v;
}

function embeddedAll(db: string): { bundles: number; embedded: number } {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT count(*) AS bundles, coalesce(sum(embedded), 0) AS embedded FROM bundles").get() as {
      bundles: number;
      embedded: number;
    };
  } finally {
    d.close();
  }
}

beforeAll(() => {
  const res = cairn(["index", "--root", corpus, "--db", clean, "--json"], { env });
  expect(res.code, res.stderr).toBe(0);
  cleanDump = dumpIndex(clean);
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Ctrl-C", () => {
  it("while reading transcripts: exit 130, what was kept, a sound database, and a second run completes it", async () => {
    const db = join(dir, "reading.db");
    const run = startCairn(["index", "--root", corpus, "--db", db], env);
    await until("the indexing phase starts", () => run.stderr().includes("indexing"), 120_000);
    run.signal("SIGINT");
    const exit = await run.exited;
    expect(exit.code, run.stderr()).toBe(130);
    const kept = /interrupted; kept (\d+) of (\d+) files/.exec(run.stderr());
    expect(kept, run.stderr()).not.toBeNull();
    expect(Number(kept![1])).toBeLessThan(Number(kept![2]));
    expect(integrityCheck(db)).toBe("ok");
    const again = cairn(["index", "--root", corpus, "--db", db, "--json"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(firstDifference(dumpIndex(db), cleanDump)).toBeNull();
  }, 240_000);

  it("while embedding: the request in flight is dropped, exit 130, and the next run embeds the rest", async () => {
    // One request probes the dimension; each batch of 256 bundles is four requests of 64: two batches get through.
    const fake = slowEmbeddings(9);
    await new Promise<void>((r) => fake.server.listen(0, "127.0.0.1", r));
    try {
      const db = join(dir, "embedding.db");
      const choose = await runCairn(
        ["embed", "--embedder", "openai", "--url", fake.url(), "--model", "fake", "--db", db],
        env,
      );
      expect(choose.code, choose.stderr).toBe(0);
      const run = startCairn(["index", "--root", corpus, "--db", db], env);
      // The endpoint stops answering after nine requests: the run is then waiting in the embedding phase.
      await until("a request the endpoint holds", () => fake.requests() > 9, 180_000);
      run.signal("SIGINT");
      const exit = await run.exited;
      expect(exit.code, run.stderr()).toBe(130);
      expect(run.stderr()).toMatch(
        /interrupted while embedding; indexed \d+ files .*, embedded [\d,]+ bundles, [\d,]+ left/,
      );
      expect(integrityCheck(db)).toBe("ok");
      const partial = embeddedAll(db);
      expect(partial.embedded).toBeGreaterThan(0);
      expect(partial.embedded).toBeLessThan(partial.bundles);
      fake.release();
      const again = await runCairn(["index", "--root", corpus, "--db", db, "--json"], env);
      expect(again.code, again.stderr).toBe(0);
      const done = embeddedAll(db);
      expect(done.embedded).toBe(done.bundles);
      expect(firstDifference(dumpIndex(db), cleanDump)).toBeNull();
    } finally {
      fake.release();
      fake.server.closeAllConnections();
      await new Promise((r) => fake.server.close(r));
    }
  }, 240_000);

  it("cairn alone stops the same way", async () => {
    const db = join(dir, "overview.db");
    const run = startCairn(["--root", corpus, "--db", db], env);
    await until("the indexing phase starts", () => run.stderr().includes("indexing"), 120_000);
    run.signal("SIGINT");
    const exit = await run.exited;
    expect(exit.code, run.stderr()).toBe(130);
    expect(run.stderr()).toMatch(/cairn: interrupted; kept \d+ of \d+ files/);
    expect(run.stdout()).toBe("");
    expect(integrityCheck(db)).toBe("ok");
  }, 240_000);
});
