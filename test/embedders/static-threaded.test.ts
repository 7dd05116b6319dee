/**
 * The static embedder on a worker thread (past its first texts) makes the vectors and codes the in-thread one
 * makes, keeps answers in the order asked, reuses the memory of answers handed back, and can be closed and used
 * again.
 */
import { describe, expect, it } from "vitest";
import { createStaticEmbedder } from "../../src/embedders/static.ts";
import { createThreadedStaticEmbedder } from "../../src/embedders/static-threaded.ts";
import { encodeVector } from "../../src/store/shared/vector-codes.ts";

const texts = [
  "npm test failed: TS2304 cannot find name parseTranscript in src/readers/pi.ts",
  "git push origin main rejected (fetch first)",
  "the terminal refused the connection on port 5432",
  "",
  "zzzqqq xxyyzz",
  "Decision: keep the writer synchronous, streams are not needed here.",
];

describe("the threaded static embedder", () => {
  it("embeds on its thread past the first texts, with the in-thread embedder's vectors and codes", async () => {
    const plain = createStaticEmbedder();
    const threaded = createThreadedStaticEmbedder(2);
    expect(threaded.id).toBe(plain.id);
    expect(threaded.dimension).toBe(plain.dimension);
    try {
      // One batch in this thread, then several in flight at once on the worker.
      const answers = [await threaded.embed(texts.slice(4), "document")];
      answers.push(...(await Promise.all([0, 1, 2, 3].map((i) => threaded.embed(texts.slice(i), "document")))));
      const from = [4, 0, 1, 2, 3];
      for (const [i, got] of answers.entries()) {
        const want = await plain.embed(texts.slice(from[i]), "document");
        expect(got.length).toBe(want.length);
        got.forEach((v, j) => {
          expect(Buffer.from(v.buffer, v.byteOffset, v.byteLength)).toEqual(Buffer.from(want[j]!.buffer));
          const mine = encodeVector(v);
          const fresh = encodeVector(Float32Array.from(v));
          expect(mine.code.equals(fresh.code) && mine.bits.equals(fresh.bits)).toBe(true);
        });
      }
      // Answers handed back are refilled by later ones: those must still be right.
      for (const got of answers) threaded.release?.(got);
      const refilled = await threaded.embed(texts.slice(0), "document");
      const want = await plain.embed(texts, "document");
      refilled.forEach((v, j) => {
        expect(Buffer.from(v.buffer, v.byteOffset, v.byteLength)).toEqual(Buffer.from(want[j]!.buffer));
        expect(encodeVector(v).code.equals(encodeVector(Float32Array.from(v)).code)).toBe(true);
      });
      await threaded.close();
      const again = await threaded.embed(texts, "document");
      expect(again.length).toBe(texts.length);
    } finally {
      await threaded.close();
    }
  });
});
