/** The built CLI's semantic layer: index embeds, embed chooses and switches embedders, search explains its hits. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { writePiSession } from "../search/pi-session.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-sem-"));
const db = join(dir, "cairn.db");
let server: Server;
let url: string;
let requests = 0;
beforeAll(async () => {
  // a fake OpenAI-compatible endpoint: 3-dimensional vectors from letter counts
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests++;
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input.map((t, index) => ({
        index,
        embedding: [(t.match(/[aeiou]/g) ?? []).length + 1, (t.match(/[st]/g) ?? []).length, t.length % 7],
      }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process, so the fake endpoint above can answer it. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("cairn index / embed / search with meaning", () => {
  it("index embeds the evidence bundles with the built-in embedder and reports it", () => {
    const r = cairn(["index", "--root", realFixturesDir(), "--db", db, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { vectors: Record<string, unknown> };
    expect(out.vectors).toMatchObject({ reset: true, pending: 0 });
    expect(out.vectors["embedded"]).toBeGreaterThan(500);
    expect(out.vectors["embedder"]).toMatch(/^static:/);
    const again = JSON.parse(cairn(["index", "--root", realFixturesDir(), "--db", db, "--json"]).stdout) as {
      vectors: Record<string, unknown>;
    };
    // Nothing changed: the same answer a refresh gives, told without counting the bundles.
    expect(again.vectors).toEqual({
      bundled: 0,
      embedded: 0,
      pending: 0,
      reset: false,
      embedder: out.vectors["embedder"],
      interrupted: false,
    });
  });

  it("embed --status tells the embedder and how much is embedded", () => {
    const r = cairn(["embed", "--status", "--json", "--db", db]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(s).toMatchObject({ config: { kind: "static" }, current: true, queued: 0 });
    expect(s["embedded"]).toBe(s["bundles"]);
    expect(cairn(["embed", "--status", "--db", db]).stdout).toMatch(/^embedder: static/);
  });

  it("search --json says how it ranked and why each hit matched; the text output says it too", () => {
    const r = cairn(["search", "that brief pause I requested in the shell", "--json", "--limit", "5", "--db", db]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { mode: string; notice: unknown; hits: Array<Record<string, unknown>> };
    expect(out.mode).toBe("hybrid");
    expect(out.notice).toBeNull();
    for (const h of out.hits) {
      expect(h["why"]).toMatch(/words|meaning/);
      expect(Array.isArray(h["signals"])).toBe(true);
    }
    const text = cairn(["search", "that brief pause I requested in the shell", "--limit", "3", "--db", db]);
    expect(text.stdout).toMatch(/matched by (some words|words|meaning)/);
    const words = JSON.parse(cairn(["search", "pause shell", "--mode", "lexical", "--json", "--db", db]).stdout);
    expect(words.mode).toBe("lexical");
    expect(cairn(["search", "x", "--mode", "fuzzy", "--db", db]).code).toBe(2);
  });

  it("a query nothing in the history is about gets no hits and exit 1, by words and meaning or meaning alone", () => {
    // gibberish and misspellings (no word the embedder knows), and real words the history never uses
    for (const q of [
      "zzzznotthere",
      "qwxzv plorkt",
      "recieve the mesage",
      "giraffe saxophone",
      "wedding dress shopping",
    ]) {
      for (const mode of ["hybrid", "vector"]) {
        const r = cairn(["search", q, "--mode", mode, "--db", db]);
        expect([q, mode, r.code, r.stdout]).toEqual([q, mode, 1, ""]);
        expect(r.stderr).toContain(`no matches for ${JSON.stringify(q)}`);
        const j = cairn(["search", q, "--mode", mode, "--json", "--db", db]);
        expect(j.code).toBe(1);
        expect(JSON.parse(j.stdout).hits).toEqual([]);
      }
    }
  });

  it("a hit says how it matched; --explain adds its ranks and similarity", () => {
    const q = "that brief pause I requested in the shell which got interrupted";
    const plain = JSON.parse(cairn(["search", q, "--json", "--limit", "5", "--db", db]).stdout) as {
      hits: Array<{ why: string; signals: Array<{ source: string }> }>;
    };
    // found by meaning: its words are not the transcript's
    expect(plain.hits.some((h) => h.why === "meaning")).toBe(true);
    for (const h of plain.hits)
      expect(h.why).toMatch(/^(some words|words|meaning|words and meaning|some words and meaning)$/);
    const explained = cairn(["search", q, "--explain", "--limit", "5", "--db", db]);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toMatch(/matched by meaning #\d+ \(0\.\d\d\)/);
    expect(cairn(["search", q, "--limit", "5", "--db", db]).stdout).not.toMatch(/#\d/);
  });

  it("an embedder that does not answer is not saved: the one that works stays", async () => {
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((r) => gone.close(() => r()));
    const r = await run([
      "embed",
      "--embedder",
      "openai",
      "--url",
      `http://127.0.0.1:${port}/v1`,
      "--model",
      "m",
      "--db",
      db,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the embedder did not answer: cannot reach .*; the embedder setting is unchanged/);
    const s = JSON.parse(cairn(["embed", "--status", "--json", "--db", db]).stdout) as Record<string, unknown>;
    expect(s).toMatchObject({ config: { kind: "static" }, current: true });
    expect(
      JSON.parse(cairn(["search", "that brief pause I requested in the shell", "--json", "--db", db]).stdout).mode,
    ).toBe("hybrid");
  });

  it("switching to an OpenAI-compatible endpoint re-embeds everything; queries then go to it", async () => {
    const r = await run(["embed", "--embedder", "openai", "--url", url, "--model", "fake-3d", "--json", "--db", db]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ config: { kind: "openai", url, model: "fake-3d" }, reset: true, pending: 0 });
    // an endpoint's floor is the user's to set; it re-embeds nothing
    const floor = await run([
      "embed",
      "--embedder",
      "openai",
      "--url",
      url,
      "--model",
      "fake-3d",
      "--floor",
      "0.99",
      "--json",
      "--db",
      db,
    ]);
    expect(JSON.parse(floor.stdout)).toMatchObject({ config: { floor: 0.99 }, reset: false, embedded: 0 });
    expect(cairn(["embed", "--status", "--db", db]).stdout).toMatch(/similarity floor 0\.99/);
    expect(cairn(["embed", "--embedder", "static", "--floor", "2", "--db", db]).code).toBe(2);
    const before = requests;
    const s = await run(["search", "rebase the branch", "--json", "--db", db]);
    expect(JSON.parse(s.stdout).mode).toBe("hybrid");
    expect(requests).toBe(before + 1);
  });

  it("an endpoint that goes away leaves search on words, with a note", async () => {
    await new Promise<void>((r) => server.close(() => r()));
    const s = await run(["search", "rebase the branch", "--json", "--db", db]);
    expect(s.code).toBe(0);
    const out = JSON.parse(s.stdout) as { mode: string; notice: string; hits: unknown[] };
    expect(out.mode).toBe("lexical");
    expect(out.notice).toMatch(/cannot reach/);
    expect(out.hits.length).toBeGreaterThan(0);
    // new events need embedding: the index still succeeds and says why the vectors lag
    const more = join(dir, "more");
    mkdirSync(more);
    writePiSession(more, "019e963d-6bd6-7ade-8a49-256ac3391bde", [{ prompt: "add a retry to the uploader" }]);
    const idx = cairn(["index", "--root", more, "--db", db]);
    expect(idx.code).toBe(0);
    expect(idx.stderr).toMatch(/semantic vectors not updated: .*cannot reach/);
    server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });

  it("--embedder none drops the vectors; misuse is exit 2", () => {
    const r = cairn(["embed", "--embedder", "none", "--json", "--db", db]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ config: { kind: "none" }, embedder: null });
    const s = JSON.parse(cairn(["search", "rebase the branch", "--json", "--db", db]).stdout);
    expect(s.mode).toBe("lexical");
    expect(cairn(["embed", "--embedder", "openai", "--db", db]).code).toBe(2);
    expect(cairn(["embed", "--embedder", "word2vec", "--db", db]).code).toBe(2);
    expect(cairn(["embed", "--url", url, "--db", db]).code).toBe(2);
  });
});
