/** The default offline embedder: the shipped word vectors, meaning from word vectors, code from hashed features. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStaticEmbedder, STATIC_EMBEDDER_ID, staticFeatures } from "../../src/embedders/static.ts";
import {
  decodeWordVectors,
  encodeWordVectors,
  openWordVectors,
  shippedWordVectors,
} from "../../src/embedders/word-vectors.ts";

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("word vectors", () => {
  it("round-trip through the file format: ranks, parts and 4-bit values", () => {
    const words = ["alpha", "beta", "gamma"];
    const vectors = [
      [1, 0, 0, 0],
      [0, -2, 0, 2],
      [0.5, 0.5, -0.5, 0],
    ];
    const table = decodeWordVectors(
      encodeWordVectors({ words, dims: 4, vectors, header: { parts: [{ dims: 2 }, { dims: 2 }] } }),
    );
    expect(table.size).toBe(3);
    expect(table.parts).toEqual([2, 2]);
    expect(words.map((w) => table.rank(w))).toEqual([0, 1, 2]);
    expect(table.rank("delta")).toBeUndefined();
    const v = new Float32Array(4);
    table.addTo(1, 1, v);
    expect(Array.from(v)).toEqual([0, -2, 0, 2]);
    const w = new Float32Array(4);
    table.addTo(2, 2, w);
    expect(Array.from(w, (x) => Math.round(x * 100) / 100)).toEqual([1, 1, -1, 0]);
  });

  it("a table opened from its file reads each page of vectors when first used, with the same ranks and values", () => {
    // 6,000 words × 100 dimensions: 300 KB of vectors, five pages, rows crossing page ends.
    const words = Array.from({ length: 6000 }, (_, i) => `w${i.toString(36)}`);
    const vectors = words.map((_, w) => Array.from({ length: 100 }, (_, i) => Math.sin(w * 31 + i * 7)));
    const bytes = encodeWordVectors({ words, dims: 100, vectors, header: { note: "é" } });
    const dir = mkdtempSync(join(tmpdir(), "cairn-wv-"));
    try {
      writeFileSync(join(dir, "t.bin"), bytes);
      const whole = decodeWordVectors(bytes);
      const opened = openWordVectors(join(dir, "t.bin"));
      expect(opened.header).toEqual(whole.header);
      for (let k = 0; k < words.length; k++) {
        const w = (k * 4099) % words.length;
        expect(opened.rank(words[w]!)).toBe(w);
        const a = new Float32Array(100);
        const b = new Float32Array(100);
        whole.addTo(w, 0.5, a);
        opened.addTo(w, 0.5, b);
        expect(b).toEqual(a);
      }
      expect(opened.rank("absent")).toBeUndefined();
      expect(() => decodeWordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not one", () => {
    expect(() => decodeWordVectors(Buffer.from("not a table at all"))).toThrow(/not a cairn word-vector file/);
  });

  it("the shipped table knows everyday and software words, in frequency order", () => {
    const table = shippedWordVectors();
    expect(table.size).toBeGreaterThan(100_000);
    expect(table.parts).toEqual([100, 100]);
    for (const w of ["the", "error", "terminal", "bash", "commit", "refactor", "typescript"])
      expect(table.rank(w), w).toBeDefined();
    expect(table.rank("the")!).toBeLessThan(table.rank("refactor")!);
  });
});

describe("static embedder", () => {
  const embedder = createStaticEmbedder();
  const embed = async (...texts: string[]) => embedder.embed(texts, "document");

  it("is deterministic, unit length, and of its declared dimension", async () => {
    const [a, b] = await embed("git push was rejected by the remote", "git push was rejected by the remote");
    expect(embedder.id).toBe(STATIC_EMBEDDER_ID);
    expect(a!.length).toBe(embedder.dimension);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
  });

  it("puts related software words closer than unrelated ones", async () => {
    const [q, near, far] = await embed(
      "the terminal session",
      "open a tty in the shell",
      "a recipe for banana bread with walnuts",
    );
    expect(cos(q!, near!)).toBeGreaterThan(cos(q!, far!) + 0.1);
    const [pause, sleep, build] = await embed("a short pause", "sleep 5 then wait", "compile the release binary");
    expect(cos(pause!, sleep!)).toBeGreaterThan(cos(pause!, build!));
  });

  it("the same identifier, path or error code pulls texts together without shared words", async () => {
    const [a, b, c] = await embed(
      "parseTranscript throws on src/readers/pi.ts TS2304",
      "see parseTranscript in src/readers/pi.ts, error TS2304",
      "formatDuration in src/cli/format.ts, error TS7006",
    );
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!) + 0.1);
  });

  it("splits identifiers into words and keeps code tokens whole", () => {
    const f = staticFeatures("parseTranscript failed in src/readers/pi.ts with TS2304", shippedWordVectors());
    expect([...f.code.keys()]).toEqual(
      expect.arrayContaining(["parsetranscript", "src/readers/pi.ts", "pi.ts", "ts2304"]),
    );
    const table = shippedWordVectors();
    for (const w of ["parse", "transcript", "failed", "readers"]) expect(f.words.has(table.rank(w)!), w).toBe(true);
  });

  it("a text with nothing to embed is all zeros", async () => {
    const [v] = await embed("/ ... !!");
    expect(v!.every((x) => x === 0)).toBe(true);
  });
});
