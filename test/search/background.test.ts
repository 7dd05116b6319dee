/** The background bar's bookkeeping: one embedding call per query, the background embedded once per embedder. */
import { describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embedders/types.ts";
import { BACKGROUND_TEXTS, embedQuery, nearest } from "../../src/search/background.ts";

/** Two dimensions: text made of letters only leans one way, anything with a space the other. */
function fakeEmbedder(): Embedder & { calls: number[] } {
  const calls: number[] = [];
  return {
    id: "fake",
    dimension: 2,
    calls,
    async embed(texts) {
      calls.push(texts.length);
      return texts.map((t) => {
        const v = Float32Array.from(t.includes(" ") ? [0.6, 0.8] : [1, 0]);
        return v;
      });
    },
  };
}

describe("embedQuery", () => {
  it("embeds the background with the first query, in the same call, and only the query after", async () => {
    const e = fakeEmbedder();
    const first = await embedQuery(e, "why was the push refused");
    expect(e.calls).toEqual([1 + BACKGROUND_TEXTS.length]);
    expect(first.background).toBeCloseTo(1, 5);
    const second = await embedQuery(e, "refused");
    expect(e.calls).toEqual([1 + BACKGROUND_TEXTS.length, 1]);
    expect(second.background).toBeCloseTo(1, 5);
  });

  it("tries the background again after a failed call", async () => {
    let fail = true;
    const e = fakeEmbedder();
    const flaky: Embedder = { ...e, embed: (t, p) => (fail ? Promise.reject(new Error("down")) : e.embed(t, p)) };
    await expect(embedQuery(flaky, "a query")).rejects.toThrow("down");
    fail = false;
    await embedQuery(flaky, "a query");
    expect(e.calls).toEqual([1 + BACKGROUND_TEXTS.length]);
  });

  it("takes the nearest background text's similarity", () => {
    const bg = [Float32Array.from([1, 0]), Float32Array.from([0, 1])];
    expect(nearest(bg, Float32Array.from([0.6, 0.8]))).toBeCloseTo(0.8, 5);
    expect(nearest([], Float32Array.from([1, 0]))).toBe(-1);
  });
});
