/** The usage report's rules, directly: which copies count, how a model is priced, days, weeks and 5-hour windows. */
import { describe, expect, it } from "vitest";
import type { UsageCall } from "../../src/topology/types.ts";
import { countedCalls } from "../../src/usage/calls.ts";
import { blockStarts, LocalDates, weekOf } from "../../src/usage/periods.ts";
import { bucketCost, type ModelPrice, Prices, type PriceTable, tableOfLitellm } from "../../src/usage/prices.ts";
import { usageReport as reportOfRows, type UsageOptions, type UsageSession } from "../../src/usage/report.ts";
import { rollUp } from "../../src/usage/rollup.ts";

type Row = UsageCall & { at?: string };

/** The report of calls as the app makes it: the copies that count, rolled up. */
function usageReport(rows: Row[], sessions: Map<string, UsageSession>, prices: Prices, o: UsageOptions) {
  return reportOfRows(rollUp(countedCalls(rows)), sessions, prices, o);
}

function callCost(r: Row, p: ModelPrice): number {
  return bucketCost(rollUp([r])[0]!, p);
}

/** A call; `at` names it in a test (the store's rows carry no place). */
function row(over: Partial<Row>): Row {
  return {
    session_id: "s1",
    provider: "claude",
    timestamp: "2026-03-01T10:00:00.000Z",
    model: "claude-sonnet-4-5",
    call: null,
    input: 10,
    output: 20,
    cache_read: 0,
    cache_write: 0,
    cache_write_1h: 0,
    reasoning: 0,
    cost: null,
    sidechain: false,
    fast: false,
    ...over,
  };
}

const TABLE: PriceTable = {
  source: "test",
  per: "1M tokens",
  fields: [],
  models: {
    "claude-sonnet-4": [3, 15, 3.75, 0.3, 6, 22.5, 7.5, 0.6],
    "claude-sonnet-4-5": [3, 15, 3.75, 0.3, null, null, null, null],
    "gpt-5": [1.25, 10, null, 0.125, null, null, null, null],
    "gemini-2.5-pro": [1.25, 10, null, 0.125, 2.5, 15, null, 0.25],
  },
};

describe("which calls count", () => {
  it("keeps the largest copy of a call, a main conversation's before a subagent's, and every unnamed record", () => {
    const rows = [
      row({ call: "m1/r1", output: 2, at: "a1" }),
      row({ call: "m1/r1", output: 70, at: "a2" }),
      row({ call: "m1/r1", output: 70, session_id: "s2", at: "b1" }),
      row({ call: "m2/r2", output: 500, sidechain: true, at: "a3" }),
      row({ call: "m2/r2", output: 5, at: "a4" }),
      row({ call: null, at: "a5" }),
      row({ call: null, at: "a6" }),
      row({ call: "zero", input: 0, output: 0, at: "a7" }),
    ];
    const kept = countedCalls(rows) as Row[];
    expect(kept.map((r) => [r.call, r.output, r.at])).toEqual([
      ["m1/r1", 70, "a2"],
      ["m2/r2", 5, "a4"],
      [null, 20, "a5"],
      [null, 20, "a6"],
    ]);
  });
});

describe("prices", () => {
  const prices = new Prices([TABLE]);

  it("finds a model by its name, without a provider's prefix or suffix, or by the longest name it contains", () => {
    expect(prices.of("claude-sonnet-4-5")?.name).toBe("claude-sonnet-4-5");
    expect(prices.of("claude-sonnet-4-20250514")?.name).toBe("claude-sonnet-4");
    expect(prices.of("claude-sonnet-4-5-20250929")?.name).toBe("claude-sonnet-4-5");
    expect(prices.of("us.anthropic.claude-sonnet-4-5-20250929-v1:0")?.name).toBe("claude-sonnet-4-5");
    expect(prices.of("openai/gpt-5")?.name).toBe("gpt-5");
    expect(prices.of("gpt-5-mini")?.name).toBe("gpt-5");
    // Not inside a word: a model that merely shares letters is not priced by chance.
    expect(prices.of("gpt-50")).toBeNull();
    expect(prices.of("my-own-model")).toBeNull();
    expect(prices.of(null)).toBeNull();
  });

  it("prices Anthropic's long context field by field above 200k tokens, and an hour's cache write at twice the input", () => {
    const p = prices.of("claude-sonnet-4")!;
    const cost = callCost(row({ input: 300_000, output: 1000, cache_read: 100_000, cache_write_1h: 10 }), p);
    const expected = (200_000 * 3 + 100_000 * 6 + 1000 * 15 + 100_000 * 0.3 + 10 * 6) / 1e6;
    expect(cost).toBeCloseTo(expected, 10);
  });

  it("prices another provider's whole call at the higher rate once its prompt passes 200k", () => {
    const p = prices.of("gemini-2.5-pro")!;
    const small = callCost(row({ input: 100_000, cache_read: 50_000, output: 10 }), p);
    expect(small).toBeCloseTo((100_000 * 1.25 + 50_000 * 0.125 + 10 * 10) / 1e6, 10);
    const large = callCost(row({ input: 150_000, cache_read: 60_000, output: 10 }), p);
    expect(large).toBeCloseTo((150_000 * 2.5 + 60_000 * 0.25 + 10 * 15) / 1e6, 10);
  });

  it("fills a missing cache price by Anthropic's rule for Claude and by the input price elsewhere", () => {
    const t = new Prices([{ ...TABLE, models: { "claude-x": [2, 10, null, null], "gpt-y": [2, 10, null, null] } }]);
    expect(t.of("claude-x")).toMatchObject({ cacheWrite: 2.5, cacheRead: 0.2 });
    expect(t.of("gpt-y")).toMatchObject({ cacheWrite: 2, cacheRead: 2 });
  });

  it("a user's LiteLLM table overrides the shipped one", () => {
    const user = tableOfLitellm({ "gpt-5": { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }, "mine");
    const both = new Prices([TABLE, user]);
    expect(both.of("gpt-5")).toMatchObject({ input: 1, output: 2 });
    expect(both.sources).toEqual(["test", "mine"]);
  });
});

describe("periods", () => {
  it("counts days in the time zone asked for", () => {
    expect(new LocalDates("UTC").date("2026-03-01T23:30:00.000Z")).toBe("2026-03-01");
    expect(new LocalDates("Asia/Tokyo").date("2026-03-01T23:30:00.000Z")).toBe("2026-03-02");
    expect(new LocalDates("America/Los_Angeles").date("2026-03-01T03:30:00.000Z")).toBe("2026-02-28");
    expect(new LocalDates("Asia/Kolkata").date("2026-03-01T18:29:00.000Z")).toBe("2026-03-01");
    expect(new LocalDates("Asia/Kolkata").date("2026-03-01T18:30:00.000Z")).toBe("2026-03-02");
    expect(new LocalDates("UTC").date("not a time")).toBeNull();
  });

  it("starts weeks on the day asked for", () => {
    expect(weekOf("2026-03-04", 1)).toBe("2026-03-02"); // a Wednesday; Monday before
    expect(weekOf("2026-03-04", 0)).toBe("2026-03-01");
    expect(weekOf("2026-03-01", 0)).toBe("2026-03-01");
  });

  it("opens a 5-hour window at the hour of a call outside one, and after 5 idle hours", () => {
    const h = 3_600_000;
    const t0 = Date.UTC(2026, 2, 1, 10, 25);
    const starts = blockStarts([t0, t0 + 2 * h, t0 + 4.5 * h, t0 + 4.7 * h, t0 + 11 * h]);
    const hour = Date.UTC(2026, 2, 1, 10);
    // 14:55 is within 10:00–15:00; 15:07 opens 15:00; 21:25, after 6 idle hours, opens 21:00.
    expect(starts).toEqual([hour, hour, hour, hour + 5 * h, hour + 11 * h]);
  });
});

describe("the report", () => {
  const sessions = new Map<string, UsageSession>([
    [
      "s1",
      { session_id: "s1", provider: "claude", kind: "main", parent_session_id: null, project: "api", title: "one" },
    ],
    [
      "s1:a",
      {
        session_id: "s1:a",
        provider: "claude",
        kind: "subagent",
        parent_session_id: "s1",
        project: "api",
        title: null,
      },
    ],
    ["p1", { session_id: "p1", provider: "pi", kind: "main", parent_session_id: null, project: "web", title: "two" }],
  ]);
  const rows = [
    row({ input: 100 }),
    row({ session_id: "s1:a", input: 50, timestamp: "2026-03-02T01:00:00.000Z" }),
    row({ session_id: "p1", provider: "pi", model: "unknown-model", cost: 0.5 }),
  ];
  const prices = new Prices([TABLE]);

  it("shows a subagent's calls under its session, and the agent's own cost beside", () => {
    const r = usageReport(rows, sessions, prices, { by: "session", timeZone: "UTC" });
    expect(r.groups.map((g) => [g.key, g.input, g.calls])).toEqual([
      ["s1", 150, 2],
      ["p1", 10, 1],
    ]);
    expect(r.groups[1]).toMatchObject({ unpriced_calls: 1, cost: 0, recorded_cost: 0.5 });
    expect(r.unpriced_models).toEqual([{ model: "unknown-model", calls: 1 }]);
    expect(r.totals).toMatchObject({ calls: 3, input: 160, output: 60, recorded_cost: 0.5 });
  });

  it("filters by day, agent, project and model, and sums by day in order", () => {
    const byDay = usageReport(rows, sessions, prices, { by: "day", timeZone: "UTC" });
    expect(byDay.groups.map((g) => [g.key, g.calls])).toEqual([
      ["2026-03-01", 2],
      ["2026-03-02", 1],
    ]);
    const since = usageReport(rows, sessions, prices, { by: "day", timeZone: "UTC", since: "2026-03-02" });
    expect(since.totals.calls).toBe(1);
    expect(usageReport(rows, sessions, prices, { by: "agent", providers: ["pi"] }).totals.calls).toBe(1);
    expect(usageReport(rows, sessions, prices, { by: "agent", projects: ["ap"] }).totals.calls).toBe(2);
    expect(usageReport(rows, sessions, prices, { by: "model", models: ["sonnet"] }).groups.map((g) => g.key)).toEqual([
      "claude-sonnet-4-5",
    ]);
    expect(usageReport(rows, sessions, prices, { by: "day", session: "s1" }).totals.calls).toBe(2);
  });
});
