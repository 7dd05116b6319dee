/**
 * The Usage view's arithmetic, kept apart from its drawing: the series a stacked chart shows, the cache hit share,
 * and how money and token counts read. Pure, so the page's numbers can be checked without a browser.
 */
import type { UsageGroupView, UsagePartView, UsageTotalsView } from "../../src/live/usage-types.ts";

export const PERIODS = ["day", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];
export const STACKS = ["agent", "model"] as const;
export type Stack = (typeof STACKS)[number];

/** Named series a chart draws, each value lined up with the chart's labels. */
export interface Series {
  name: string;
  values: Array<number | null>;
}

/** The series past this many are summed into one "other", so every colour stays tellable from the rest. */
export const MAX_SERIES = 5;
export const OTHER = "other";

/**
 * Cost per group, one series per agent or model: the costliest `max` overall by name, the rest as "other".
 * A part of a group that has no cost (an unpriced model) adds nothing.
 */
export function costSeries(groups: readonly UsageGroupView[], stack: Stack, max = MAX_SERIES): Series[] {
  const partsOf = (g: UsageGroupView): UsagePartView[] => (stack === "agent" ? g.by_agent : g.by_model);
  const overall = new Map<string, number>();
  for (const g of groups) for (const p of partsOf(g)) overall.set(p.name, (overall.get(p.name) ?? 0) + p.cost);
  const ranked = [...overall].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  // With one name to spare, "other" would stand for a single name: show that name instead.
  const named = ranked.length <= max + 1 ? ranked : ranked.slice(0, max);
  const series = named.map((name) => ({ name, values: groups.map(() => 0) as Array<number | null> }));
  const other: Series = { name: OTHER, values: groups.map(() => 0) };
  groups.forEach((g, i) => {
    for (const p of partsOf(g)) {
      const at = series.find((s) => s.name === p.name) ?? other;
      at.values[i] = (at.values[i] ?? 0) + p.cost;
    }
  });
  return named.length < ranked.length ? [...series, other] : series;
}

/** The token kinds a session's bar is split into; together they make its total. */
export const TOKEN_KINDS = [
  { key: "cache_read", label: "cache read" },
  { key: "cache_write", label: "cache write" },
  { key: "input", label: "input" },
  { key: "output", label: "output" },
] as const;

export function tokenSeries(groups: readonly UsageTotalsView[]): Series[] {
  return TOKEN_KINDS.map((k) => ({ name: k.label, values: groups.map((g) => g[k.key]) }));
}

/**
 * The part of the input the cache served: cache reads over all input (fresh, read from and written to the
 * cache). Null when the group had no input at all.
 */
export function cacheShare(t: UsageTotalsView): number | null {
  const all = t.input + t.cache_read + t.cache_write;
  return all === 0 ? null : t.cache_read / all;
}

/** US dollars with cents; under a cent, to four places, so a small cost does not read as none. */
export function money(n: number): string {
  if (n > 0 && n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Every token, with separators: what the tables show. */
export function count(n: number): string {
  return n.toLocaleString("en");
}

/** A short count for axes and headline figures: 1.2M, 34.5k. */
export function compact(n: number): string {
  return n.toLocaleString("en", { notation: "compact", maximumFractionDigits: 1 });
}

export function percent(share: number | null): string {
  return share === null ? "—" : `${(share * 100).toFixed(1)}%`;
}

/** A period's key as the axis shows it: a week by the day it starts. */
export function periodLabel(key: string, period: Period): string {
  if (period === "week" && /^\d{4}-\d\d-\d\d$/.test(key)) return `wk ${key}`;
  return key;
}

/** Quick time ranges; "" is every recorded day. */
export const RANGES = [
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "", label: "all" },
] as const;

/** The time filter in words, from the days the answer resolved it to. */
export function spanLabel(since: string | null, until: string | null): string {
  if (since && until) return since === until ? `on ${since}` : `${since} to ${until}`;
  if (since) return `since ${since}`;
  if (until) return `until ${until}`;
  return "all recorded time";
}
