/** The MCP tools' size bounds and timeline windows, as pure functions. */
import { describe, expect, it } from "vitest";
import { clip, fitRange, oneLine, toolResult } from "../../src/mcp/bounded-output.ts";
import { windowOf } from "../../src/mcp/tools/session-timeline.ts";

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

describe("windowOf (session_timeline)", () => {
  it("takes the end by default, from/to as given but at most max rows, and centres on an event", () => {
    expect(windowOf({ last: 99, max: 10, from: undefined, to: undefined, around: undefined })).toEqual({
      from: 90,
      to: 99,
      tail: true,
    });
    expect(windowOf({ last: 99, max: 10, from: 5, to: undefined, around: undefined })).toMatchObject({
      from: 5,
      to: 14,
    });
    expect(windowOf({ last: 99, max: 10, from: 5, to: 8, around: undefined })).toMatchObject({ from: 5, to: 8 });
    expect(windowOf({ last: 99, max: 10, from: undefined, to: 30, around: undefined })).toMatchObject({
      from: 21,
      to: 30,
    });
    expect(windowOf({ last: 99, max: 10, from: undefined, to: undefined, around: 50 })).toMatchObject({
      from: 45,
      to: 54,
    });
    expect(windowOf({ last: 99, max: 10, from: undefined, to: undefined, around: 2 })).toMatchObject({
      from: 0,
      to: 9,
    });
    expect(windowOf({ last: 99, max: 10, from: undefined, to: undefined, around: 98 })).toMatchObject({
      from: 90,
      to: 99,
    });
    expect(windowOf({ last: 3, max: 10, from: undefined, to: undefined, around: undefined })).toMatchObject({
      from: 0,
      to: 3,
    });
  });
});
