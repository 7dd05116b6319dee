import { describe, expect, it } from "vitest";
import { cloneJson } from "../../src/common/clone.ts";

describe("cloneJson", () => {
  it("copies a resumable state deeply, as structuredClone does", () => {
    const state = { n: 1, s: "a", none: null, gone: undefined, list: [{ k: [1, 2] }], map: { a: { b: true } } };
    const copy = cloneJson(state);
    expect(copy).toStrictEqual(structuredClone(state));
    copy.list[0]!.k.push(3);
    copy.map.a.b = false;
    expect(state.list[0]!.k).toEqual([1, 2]);
    expect(state.map.a.b).toBe(true);
  });

  it("keeps a `__proto__` key read from a transcript as an own property", () => {
    const state = JSON.parse('{"calls":{"__proto__":{"id":"x"}}}') as { calls: Record<string, unknown> };
    const copy = cloneJson(state);
    expect(Object.getPrototypeOf(copy.calls)).toBe(Object.prototype);
    expect(Object.keys(copy.calls)).toEqual(["__proto__"]);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(state));
  });
});
