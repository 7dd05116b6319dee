/** The MCP tools' size bounds, as pure functions. */
import { describe, expect, it } from "vitest";
import { clip, fitRange, oneLine, toolResult } from "../../src/mcp/bounded-output.ts";

const sizes = (...n: number[]) => n.map((x) => ({ text: x, json: x }));

describe("fitRange", () => {
  it("keeps a prefix from the start, a suffix from the end, and grows both ways around a middle anchor", () => {
    const ten = sizes(...Array<number>(10).fill(10));
    expect(fitRange(ten, 0, { text: 35, json: 1_000 })).toEqual({ start: 0, end: 3 });
    expect(fitRange(ten, 9, { text: 35, json: 1_000 })).toEqual({ start: 7, end: 10 });
    expect(fitRange(ten, 5, { text: 50, json: 1_000 })).toEqual({ start: 3, end: 8 });
    expect(fitRange(ten, 5, { text: 1_000, json: 1_000 })).toEqual({ start: 0, end: 10 });
  });

  it("is bounded by whichever channel fills first, and never returns nothing", () => {
    expect(fitRange([{ text: 1, json: 50 }, ...sizes(1, 1)], 0, { text: 100, json: 52 })).toEqual({ start: 0, end: 3 });
    expect(fitRange([{ text: 1, json: 50 }, ...sizes(5, 1)], 0, { text: 100, json: 52 })).toEqual({ start: 0, end: 1 });
    expect(fitRange(sizes(500), 0, { text: 10, json: 10 })).toEqual({ start: 0, end: 1 });
    expect(fitRange([], 0, { text: 10, json: 10 })).toEqual({ start: 0, end: 0 });
  });
});

describe("clip and oneLine", () => {
  it("cut to the limit, say how much was cut, and never split a surrogate pair", () => {
    expect(clip("abcdef", 4)).toEqual({ text: "abcd", cut: 2 });
    expect(clip("abc", 4)).toEqual({ text: "abc", cut: 0 });
    expect(clip("ab😀cd", 3)).toEqual({ text: "ab", cut: 4 });
    expect(oneLine("a\n  b\tc  ", 10)).toBe("a b c");
    expect(oneLine("abcdefghijkl", 5)).toBe("abcd…");
  });

  it("toolResult cuts an oversized text as a last resort and says so", () => {
    const r = toolResult({ text: "x".repeat(30_000), structured: { a: 1 } });
    const text = (r.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(20_100);
    expect(text).toMatch(/\[10000 more characters cut\]$/);
    expect(r.structuredContent).toEqual({ a: 1 });
  });
});
