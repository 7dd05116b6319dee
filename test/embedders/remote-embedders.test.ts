/**
 * The OpenAI-compatible embedder against a fake `/v1/embeddings` server on loopback, and the transformers.js
 * embedder against a fake library (no model weights can be downloaded here).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedder, parseEmbedderConfig } from "../../src/embedders/config.ts";
import { createOpenAiEmbedder } from "../../src/embedders/openai.ts";
import { createTransformersEmbedder, type TransformersModule } from "../../src/embedders/transformers.ts";
import { EmbedderError } from "../../src/embedders/types.ts";

interface Seen {
  auth: string | undefined;
  inputs: string[][];
}
let server: Server;
let base: string;
const seen: Seen = { auth: undefined, inputs: [] };
let failNext = 0;
let reply: ((input: string[]) => unknown) | null = null;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url !== "/v1/embeddings" || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      if (failNext > 0) {
        failNext--;
        res.writeHead(429).end("slow down");
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      seen.auth = req.headers.authorization;
      seen.inputs.push(input);
      const data = reply
        ? reply(input)
        : {
            model,
            data: input.map((t, index) => ({ index, embedding: [t.length, 1, 0, 0] })).reverse(),
          };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(data));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("OpenAI-compatible embedder", () => {
  it("batches texts, sends the key, puts answers back in order and normalises them", async () => {
    seen.inputs = [];
    const e = createOpenAiEmbedder({ url: base, model: "nomic-embed-text", apiKey: "sk-test", batchSize: 2 });
    expect(e.id).toBe(`openai:nomic-embed-text@${base}/embeddings`);
    expect(e.dimension).toBeNull();
    const out = await e.embed(["a", "bbb", "cc"], "document");
    expect(seen.inputs).toEqual([["a", "bbb"], ["cc"]]);
    expect(seen.auth).toBe("Bearer sk-test");
    expect(e.dimension).toBe(4);
    expect(out.map((v) => Math.round(v[0]! / v[1]!))).toEqual([1, 3, 2]);
    for (const v of out) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it("retries a rate limit, then gives up with an EmbedderError naming the endpoint", async () => {
    failNext = 1;
    const e = createOpenAiEmbedder({ url: base, model: "m", retries: 2 });
    await expect(e.embed(["x"], "query")).resolves.toHaveLength(1);
    failNext = 5;
    const once = createOpenAiEmbedder({ url: base, model: "m", retries: 1 });
    await expect(once.embed(["x"], "query")).rejects.toThrow(/answered 429/);
    failNext = 0;
  });

  it("refuses malformed replies and unreachable endpoints with EmbedderError", async () => {
    reply = () => ({ data: [{ embedding: ["not", "numbers"] }] });
    await expect(createOpenAiEmbedder({ url: base, model: "m" }).embed(["x"], "query")).rejects.toBeInstanceOf(
      EmbedderError,
    );
    reply = () => ({ data: [] });
    await expect(createOpenAiEmbedder({ url: base, model: "m" }).embed(["x"], "query")).rejects.toThrow(
      /did not return 1 embeddings/,
    );
    reply = null;
    const down = createOpenAiEmbedder({ url: "http://127.0.0.1:9/v1", model: "m", retries: 0 });
    await expect(down.embed(["x"], "query")).rejects.toThrow(/cannot reach/);
    expect(() => createOpenAiEmbedder({ url: "not a url", model: "m" })).toThrow(EmbedderError);
  });

  it("is what a stored openai setting makes, with the key from the environment", async () => {
    const config = parseEmbedderConfig(JSON.stringify({ kind: "openai", url: base, model: "m" }));
    const e = createEmbedder(config, { OPENAI_API_KEY: "sk-env" })!;
    await e.embed(["x"], "query");
    expect(seen.auth).toBe("Bearer sk-env");
    expect(() => parseEmbedderConfig('{"kind":"openai"}')).toThrow(/not valid/);
    expect(parseEmbedderConfig(null)).toEqual({ kind: "static" });
  });
});

describe("transformers.js embedder", () => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-tf-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fakeLibrary(calls: Array<{ model: string; texts: string[] }>): TransformersModule {
    const lib: TransformersModule = {
      env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: "" },
      async pipeline(_task, model) {
        return async (texts) => {
          calls.push({ model, texts });
          const data = new Float32Array(texts.length * 3);
          for (const [r, t] of texts.entries()) data.set([t.length, 2, 0], r * 3);
          return { dims: [texts.length, 3], data };
        };
      },
    };
    return lib;
  }

  it("loads a local folder as a local model without remote access, and splits the tensor per text", async () => {
    const folder = join(dir, "all-MiniLM-L6-v2");
    mkdirSync(folder);
    const calls: Array<{ model: string; texts: string[] }> = [];
    const lib = fakeLibrary(calls);
    const e = createTransformersEmbedder({ model: folder, load: async () => lib, batchSize: 2 });
    expect(e.id).toBe(`transformers:${folder}`);
    const out = await e.embed(["ab", "abcd", "a"], "document");
    expect(lib.env).toMatchObject({ allowRemoteModels: false, allowLocalModels: true, localModelPath: `${dir}/` });
    expect(calls.map((c) => c.model)).toEqual(["all-MiniLM-L6-v2", "all-MiniLM-L6-v2"]);
    expect(calls.map((c) => c.texts.length)).toEqual([2, 1]);
    expect(out.map((v) => Math.round((v[0]! / v[1]!) * 2))).toEqual([2, 4, 1]);
    expect(e.dimension).toBe(3);
  });

  it("a missing folder or library is an EmbedderError that says what to do", async () => {
    expect(() => createTransformersEmbedder({ model: join(dir, "nope") })).toThrow(/no model folder/);
    const e = createTransformersEmbedder({
      model: "Xenova/all-MiniLM-L6-v2",
      load: async () => {
        throw new EmbedderError("the transformers embedder needs @huggingface/transformers: run 'npm install …'");
      },
    });
    await expect(e.embed(["x"], "query")).rejects.toThrow(/npm install/);
    const real = createTransformersEmbedder({ model: "Xenova/all-MiniLM-L6-v2" });
    await expect(real.embed(["x"], "query")).rejects.toThrow(/@huggingface\/transformers/);
  });
});
