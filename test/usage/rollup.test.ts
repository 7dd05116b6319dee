/**
 * A report of calls rolled up per quarter hour (usage/rollup.ts) is the report of the calls one by one: for every
 * grouping, in zones whose offsets are whole hours, half and three quarters of one, with calls exactly on a quarter
 * hour, prompts on both sides of the 200k tier, fast mode, unpriced models and the agents' own costs.
 */
import { describe, expect, it } from "vitest";
import type { Provider, UsageCall } from "../../src/topology/types.ts";
import { Prices, type PriceTable } from "../../src/usage/prices.ts";
import { USAGE_GROUPINGS, type UsageReport, type UsageSession, usageReport } from "../../src/usage/report.ts";
import { bucketOfValues, bucketValues, rollUp } from "../../src/usage/rollup.ts";

const TABLE: PriceTable = {
  source: "test",
  per: "1M tokens",
  fields: [],
  models: {
    "claude-opus-4-6": [5, 25, 6.25, 0.5, 10, 37.5, 12.5, 1],
    "gpt-5": [1.25, 10, null, 0.125, null, null, null, null],
    "gemini-2.5-pro": [1.25, 10, null, 0.125, 2.5, 15, null, 0.25],
  },
};
const MODELS = ["claude-opus-4-6", "gpt-5", "gemini-2.5-pro", "no-price-model", null];
const PROVIDERS: Provider[] = ["claude", "codex", "gemini"];

/** A seeded generator, so a failure names calls that can be made again. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function calls(seed: number, n: number): UsageCall[] {
  const rand = lcg(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const count = () => (rand() < 0.2 ? Math.floor(rand() * 400_000) : Math.floor(rand() * 5_000));
  const base = Date.UTC(2026, 2, 1);
  const out: UsageCall[] = [];
  for (let i = 0; i < n; i++) {
    // Some calls on a quarter hour to the millisecond (and as whole seconds), some undated or no time at all.
    const r = rand();
    const t =
      r < 0.15
        ? base + Math.floor(rand() * 400) * 900_000
        : base + Math.floor(rand() * 30 * 86_400_000 * (r < 0.6 ? 0.1 : 1));
    const timestamp =
      r < 0.03
        ? null
        : r < 0.05
          ? "not a time"
          : r < 0.1
            ? new Date(t).toISOString().replace(/\.\d+Z$/, "Z")
            : new Date(t).toISOString();
    out.push({
      session_id: `s${Math.floor(rand() * 6)}`,
      provider: pick(PROVIDERS),
      timestamp,
      model: pick(MODELS),
      call: null,
      input: count(),
      output: count(),
      cache_read: count(),
      cache_write: count(),
      cache_write_1h: rand() < 0.3 ? count() : 0,
      reasoning: Math.floor(rand() * 100),
      cost: rand() < 0.2 ? rand() : null,
      sidechain: false,
      fast: rand() < 0.2,
    });
  }
  return out;
}

const sessions = new Map<string, UsageSession>(
  [0, 1, 2, 3, 4, 5].map((i) => [
    `s${i}`,
    {
      session_id: `s${i}`,
      provider: "claude",
      kind: i === 5 ? "subagent" : "main",
      parent_session_id: i === 5 ? "s1" : null,
      project: i % 2 === 0 ? "/work/api" : "/work/web",
      title: null,
    },
  ]),
);

/** Costs summed in another order differ in the last bits: compared to a billionth of a dollar. */
function rounded(r: UsageReport): unknown {
  return JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v)));
}

describe("rolled-up calls", () => {
  const prices = new Prices([TABLE]);
  const zones = ["UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", undefined];

  it("give every report the calls give one by one", () => {
    for (const seed of [1, 2, 3]) {
      const all = calls(seed, 3_000);
      const rolled = rollUp(all);
      expect(rolled.length).toBeLessThan(all.length);
      const single = all.map((c) => rollUp([c])[0]!);
      for (const by of USAGE_GROUPINGS)
        for (const timeZone of zones) {
          const o = { by, ...(timeZone ? { timeZone } : {}), ...(by === "day" ? { since: "2026-03-03" } : {}) };
          expect(rounded(usageReport(rolled, sessions, prices, o)), `${seed} ${by} ${timeZone}`).toEqual(
            rounded(usageReport(single, sessions, prices, o)),
          );
        }
    }
  });

  it("keep a call exactly on a quarter hour apart, where a 5-hour window may end", () => {
    const at = (iso: string): UsageCall => ({ ...calls(9, 1)[0]!, session_id: "s0", model: "gpt-5", timestamp: iso });
    // 10:07 opens 10:00-15:00; 15:00:00.000 is its last instant; 15:00:30 opens the next window.
    const rows = rollUp([at("2026-03-01T10:07:00.000Z"), at("2026-03-01T15:00:00.000Z"), at("2026-03-01T15:00:30Z")]);
    expect(rows).toHaveLength(3);
    const blocks = usageReport(rows, sessions, prices, { by: "block" }).groups.map((g) => [g.key, g.calls]);
    expect(blocks).toEqual([
      ["2026-03-01T10:00:00.000Z", 2],
      ["2026-03-01T15:00:00.000Z", 1],
    ]);
  });

  it("are kept and read back as they were", () => {
    const rolled = rollUp(calls(4, 500));
    expect(rolled.map((b) => bucketOfValues(JSON.parse(JSON.stringify(bucketValues(b)))))).toEqual(rolled);
  });
});
