/**
 * The Usage view's arithmetic: a stacked chart's series add up to each period's cost and keep at most five names
 * and an "other", the cache hit share is cache reads over all input, and small costs do not read as none.
 */
import { describe, expect, it } from "vitest";
import type { UsageGroupView } from "../../src/live/usage-types.ts";
import { cacheShare, costSeries, MAX_SERIES, money, OTHER } from "../../web/history/usage-data.ts";

function group(key: string, models: Record<string, number>): UsageGroupView {
  const parts = Object.entries(models).map(([name, cost]) => ({ name, cost, total: 10 }));
  const cost = parts.reduce((a, p) => a + p.cost, 0);
  return {
    key,
    first: null,
    last: null,
    input: 0,
    output: 0,
    cache_read: 0,
    cache_write: 0,
    reasoning: 0,
    total: parts.length * 10,
    cost,
    calls: parts.length,
    unpriced_calls: 0,
    recorded_cost: null,
    by_model: parts,
    by_agent: [{ name: "claude", total: parts.length * 10, cost }],
  };
}

describe("usage series", () => {
  it("stacks to each period's cost, the costliest names first and the rest as other", () => {
    const groups = [
      group("2026-01-01", { a: 5, b: 4, c: 3, d: 2, e: 1, f: 0.5, g: 0.25 }),
      group("2026-01-02", { a: 1, g: 2 }),
    ];
    const series = costSeries(groups, "model");
    expect(series.map((s) => s.name)).toEqual(["a", "b", "c", "g", "d", OTHER]);
    expect(series).toHaveLength(MAX_SERIES + 1);
    groups.forEach((g, i) => {
      const stacked = series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0);
      expect(stacked).toBeCloseTo(g.cost, 10);
    });
    expect(series.at(-1)!.values).toEqual([1.5, 0]);
  });

  it("names a lone sixth series instead of calling it other", () => {
    const series = costSeries([group("d", { a: 6, b: 5, c: 4, d: 3, e: 2, f: 1 })], "model");
    expect(series.map((s) => s.name)).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("splits by agent from the agent parts", () => {
    expect(costSeries([group("d", { a: 1, b: 2 })], "agent")).toEqual([{ name: "claude", values: [3] }]);
  });

  it("takes the cache hit share over fresh input, cache reads and cache writes", () => {
    const g = { ...group("d", {}), input: 10, cache_read: 70, cache_write: 20 };
    expect(cacheShare(g)).toBeCloseTo(0.7, 10);
    expect(cacheShare(group("d", {}))).toBeNull();
  });

  it("shows costs under a cent to four places", () => {
    expect(money(0.002435)).toBe("$0.0024");
    expect(money(0)).toBe("$0.00");
    expect(money(1234.5)).toBe("$1,234.50");
  });
});
