/** Reciprocal rank fusion and the coverage-driven weights that decide how much words and meaning count. */
import { describe, expect, it } from "vitest";
import { agreeingRanks, fuseRankings, fusionWeights, RRF_K } from "../../src/search/hybrid.ts";

describe("reciprocal rank fusion", () => {
  it("sums 1/(k + rank) over the lists that hold an id", () => {
    const fused = fuseRankings([
      ["a", "b", "c"],
      ["c", "a", "d"],
    ]);
    const score = Object.fromEntries(fused.map((r) => [r.item, r.score]));
    expect(score["a"]).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2));
    expect(score["c"]).toBeCloseTo(1 / (RRF_K + 3) + 1 / (RRF_K + 1));
    expect(score["d"]).toBeCloseTo(1 / (RRF_K + 3));
    // a is first in one list and second in the other; c first and third; then b beats d on the same rank by id
    expect(fused.map((r) => r.item)).toEqual(["a", "c", "b", "d"]);
    expect(fused[0]!.ranks).toEqual([
      { list: 0, rank: 1 },
      { list: 1, rank: 2 },
    ]);
  });

  it("an item found by both lists outranks items found by one", () => {
    const fused = fuseRankings([
      ["x", "both"],
      ["y", "both"],
    ]);
    expect(fused[0]!.item).toBe("both");
  });

  it("weights scale a list's contribution: a tie-breaking list reorders the other's head but cannot push into it", () => {
    const words = Array.from({ length: 10 }, (_, i) => `w${i}`);
    const meaning = ["m0", "m1", "w9"];
    const fused = fuseRankings([words, meaning], [1, 0.1]).map((r) => r.item);
    expect(new Set(fused.slice(0, 10))).toEqual(new Set(words));
    expect(fused.indexOf("w9")).toBeLessThan(9); // the item both lists hold moved up
    const even = fuseRankings([words, meaning], [1, 1]).map((r) => r.item);
    expect(even.slice(0, 3)).toEqual(["w9", "m0", "w0"]); // held by both, then the two heads (tie broken by id)
  });

  it("ties go to the better best rank, then the id, so the order is deterministic", () => {
    expect(fuseRankings([["b"], ["a"]]).map((r) => r.item)).toEqual(["a", "b"]);
    expect(fuseRankings([[], []])).toEqual([]);
  });
});

describe("meaning agreeing with words", () => {
  it("lifts a word match it ranks better, and sinks one only when it judges it far from the query", () => {
    const nearest = [
      { id: "call", similarity: 0.62 },
      { id: "other", similarity: 0.6 },
      { id: "error", similarity: 0.39 },
      { id: "noise", similarity: 0.12 },
    ];
    const ranks = agreeingRanks(nearest, ["answer", "error", "noise", "call"]);
    // "other" was not found by words: meaning adds it in its own list
    expect(ranks).toEqual([{ id: "call", rank: 1 }, null, { id: "error", rank: 2 }, { id: "noise", rank: 4 }]);
    // an explicit rank counts where it says, not where it stands in the list
    const fused = fuseRankings([["answer", "error", "noise", "call"], ranks], [1, 0.5]);
    expect(fused.map((r) => r.item).indexOf("error")).toBeLessThan(fused.map((r) => r.item).indexOf("call"));
    expect(fused.find((r) => r.item === "error")!.ranks).toEqual([
      { list: 0, rank: 2 },
      { list: 1, rank: 2 },
    ]);
  });
});

describe("fusion weights", () => {
  it("words rule when one event holds the query's words, meaning when none holds many", () => {
    expect(fusionWeights(1)).toEqual([1, 0]);
    expect(fusionWeights(0.75)).toEqual([1, 0]);
    const [words, meaning] = fusionWeights(0.4);
    expect(words).toBeCloseTo(1);
    expect(meaning).toBeCloseTo(1);
    const [w, m] = fusionWeights(0.15);
    expect(m).toBe(1);
    expect(w).toBeLessThan(0.2);
    expect(fusionWeights(0)).toEqual([0.1, 1]);
  });

  it("the weights move monotonically with coverage", () => {
    let last = fusionWeights(0);
    for (let c = 0.05; c <= 1; c += 0.05) {
      const now = fusionWeights(c);
      expect(now[0]).toBeGreaterThanOrEqual(last[0]);
      expect(now[1]).toBeLessThanOrEqual(last[1]);
      last = now;
    }
  });
});
