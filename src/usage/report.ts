/**
 * The usage report: the calls that count (calls.ts), rolled up (rollup.ts), summed by day, week, month, 5-hour
 * window, session, project, agent or model, with what they cost by the price table and, where the agent priced them
 * itself, by its own count. Pure: the rows, the sessions they belong to and the prices come in as values.
 */
import type { Provider } from "../topology/types.ts";
import { blockStarts, LocalDates, monthOf, weekOf } from "./periods.ts";
import { bucketCost, type Prices } from "./prices.ts";
import { bucketTotal, type UsageBucket } from "./rollup.ts";

export const USAGE_GROUPINGS = ["day", "week", "month", "block", "session", "project", "agent", "model"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];
/** Groupings by time: listed oldest first (the others costliest first). */
export const PERIOD_GROUPINGS: ReadonlySet<UsageGrouping> = new Set(["day", "week", "month", "block"]);

/** What a session contributes to the report: where its calls are shown and under which name. */
export interface UsageSession {
  session_id: string;
  provider: Provider;
  kind: string;
  parent_session_id: string | null;
  project: string | null;
  title: string | null;
}

export interface UsageOptions {
  by: UsageGrouping;
  /** Inclusive local dates, `YYYY-MM-DD`. */
  since?: string;
  until?: string;
  /** An IANA zone days are counted in; the system's when absent. */
  timeZone?: string;
  /** What to call the zone in the answer when none is named (the app knows the system's). */
  systemZone?: string;
  /** 0 Sunday … 6 Saturday; Monday by default. */
  weekStart?: number;
  providers?: readonly string[];
  projects?: readonly string[];
  models?: readonly string[];
  /** Only this session's calls (its subagents' with them). */
  session?: string;
}

export interface UsageTotals {
  input: number;
  output: number;
  cache_read: number;
  /** Cache writes of any duration. */
  cache_write: number;
  reasoning: number;
  total: number;
  /** By cairn's price table, over the calls it prices. */
  cost: number;
  calls: number;
  /** Calls of a model the price table does not list: their tokens count, their cost is not known. */
  unpriced_calls: number;
  /** What the agents priced their own calls at, where they did (pi), else null. */
  recorded_cost: number | null;
}

export interface UsagePart {
  name: string;
  total: number;
  cost: number;
}

export interface UsageGroup extends UsageTotals {
  /** The period (`2026-12-07`, `2026-12`, a window's start), the session id, project, agent or model. */
  key: string;
  first: string | null;
  last: string | null;
  by_model: UsagePart[];
  by_agent: UsagePart[];
  /** For a session: what it is. */
  session?: UsageSession;
}

export interface UsageReport {
  by: UsageGrouping;
  time_zone: string;
  since: string | null;
  until: string | null;
  groups: UsageGroup[];
  totals: UsageTotals;
  /** Models the price table does not list, with their calls. */
  unpriced_models: Array<{ model: string; calls: number }>;
  prices: string[];
}

const NONE = "(model not recorded)";

function emptyTotals(): UsageTotals {
  return {
    input: 0,
    output: 0,
    cache_read: 0,
    cache_write: 0,
    reasoning: 0,
    total: 0,
    cost: 0,
    calls: 0,
    unpriced_calls: 0,
    recorded_cost: null,
  };
}

function add(t: UsageTotals, r: UsageBucket, total: number, cost: number | null): void {
  t.input += r.input;
  t.output += r.output;
  t.cache_read += r.cache_read;
  t.cache_write += r.cache_write + r.cache_write_1h;
  t.reasoning += r.reasoning;
  t.total += total;
  t.calls += r.calls;
  if (cost === null) t.unpriced_calls += r.calls;
  else t.cost += cost;
  if (r.cost !== null) t.recorded_cost = (t.recorded_cost ?? 0) + r.cost;
}

/** The session a call is shown under: a subagent's calls are its parent's. */
function rootOf(id: string, sessions: ReadonlyMap<string, UsageSession>): string {
  let at = id;
  for (let i = 0; i < 8; i++) {
    const s = sessions.get(at);
    const parent = s?.kind === "subagent" ? s.parent_session_id : null;
    if (parent === null || parent === undefined || !sessions.has(parent)) return at;
    at = parent;
  }
  return at;
}

interface Call {
  row: UsageBucket;
  date: string | null;
  cost: number | null;
  root: string;
  total: number;
}

export function usageReport(
  rows: readonly UsageBucket[],
  sessions: ReadonlyMap<string, UsageSession>,
  prices: Prices,
  o: UsageOptions,
): UsageReport {
  const dates = new LocalDates(o.timeZone);
  const calls = selected(rows, sessions, prices, dates, o);
  const keys = groupKeys(calls, o, sessions);
  const groups = new Map<string, { g: UsageGroup; models: Map<string, UsagePart>; agents: Map<string, UsagePart> }>();
  const totals = emptyTotals();
  const unpriced = new Map<string, number>();
  calls.forEach((c, i) => {
    const key = keys[i]!;
    let at = groups.get(key);
    if (!at) {
      at = {
        g: { key, first: null, last: null, by_model: [], by_agent: [], ...emptyTotals() },
        models: new Map(),
        agents: new Map(),
      };
      if (o.by === "session") {
        const s = sessions.get(key);
        if (s) at.g.session = s;
      }
      groups.set(key, at);
    }
    const { g } = at;
    add(g, c.row, c.total, c.cost);
    add(totals, c.row, c.total, c.cost);
    const { first, last } = c.row;
    if (first !== null && (g.first === null || first < g.first)) g.first = first;
    if (last !== null && (g.last === null || last > g.last)) g.last = last;
    part(at.models, c.row.model ?? NONE, c);
    part(at.agents, c.row.provider, c);
    if (c.cost === null) unpriced.set(c.row.model ?? NONE, (unpriced.get(c.row.model ?? NONE) ?? 0) + c.row.calls);
  });
  const out = [...groups.values()].map(({ g, models, agents }) => ({
    ...g,
    by_model: byCost(models),
    by_agent: byCost(agents),
  }));
  out.sort(
    PERIOD_GROUPINGS.has(o.by) ? (a, b) => (a.key < b.key ? -1 : 1) : (a, b) => b.cost - a.cost || b.total - a.total,
  );
  return {
    by: o.by,
    time_zone: dates.timeZone ?? o.systemZone ?? "the system's time zone",
    since: o.since ?? null,
    until: o.until ?? null,
    groups: out,
    totals,
    unpriced_models: [...unpriced].map(([model, n]) => ({ model, calls: n })).sort((a, b) => b.calls - a.calls),
    prices: prices.sources,
  };
}

function part(parts: Map<string, UsagePart>, name: string, c: Call): void {
  let p = parts.get(name);
  if (!p) {
    p = { name, total: 0, cost: 0 };
    parts.set(name, p);
  }
  p.total += c.total;
  p.cost += c.cost ?? 0;
}

function byCost(parts: Map<string, UsagePart>): UsagePart[] {
  return [...parts.values()].sort((a, b) => b.cost - a.cost || b.total - a.total || (a.name < b.name ? -1 : 1));
}

/** The rows that pass the filters, each with its local date, cost and the session it is shown under. */
function selected(
  rows: readonly UsageBucket[],
  sessions: ReadonlyMap<string, UsageSession>,
  prices: Prices,
  dates: LocalDates,
  o: UsageOptions,
): Call[] {
  const providers = o.providers && o.providers.length > 0 ? new Set(o.providers) : null;
  const projects = o.projects && o.projects.length > 0 ? o.projects.map((p) => p.toLowerCase()) : null;
  const models = o.models && o.models.length > 0 ? o.models.map((m) => m.toLowerCase()) : null;
  const out: Call[] = [];
  // A report reads tens of thousands of calls of a few hundred sessions: each session's place is found once.
  const roots = new Map<string, { root: string; project: boolean }>();
  for (const row of rows) {
    if (providers && !providers.has(row.provider)) continue;
    let at = roots.get(row.session_id);
    if (!at) {
      const root = rootOf(row.session_id, sessions);
      const project = (sessions.get(root)?.project ?? "").toLowerCase();
      at = { root, project: projects === null || projects.some((p) => project.includes(p)) };
      roots.set(row.session_id, at);
    }
    const { root } = at;
    if (o.session !== undefined && root !== o.session && row.session_id !== o.session) continue;
    if (!at.project) continue;
    if (models && !models.some((m) => (row.model ?? "").toLowerCase().includes(m))) continue;
    // Every call of a row falls on one local day (rollup.ts).
    const date = dates.date(row.first);
    if (o.since !== undefined && (date === null || date < o.since)) continue;
    if (o.until !== undefined && (date === null || date > o.until)) continue;
    const price = prices.of(row.model);
    out.push({ row, date, root, cost: price === null ? null : bucketCost(row, price), total: bucketTotal(row) });
  }
  return out;
}

function groupKeys(calls: readonly Call[], o: UsageOptions, sessions: ReadonlyMap<string, UsageSession>): string[] {
  const undated = "(no time recorded)";
  switch (o.by) {
    case "day":
      return calls.map((c) => c.date ?? undated);
    case "week": {
      const weeks = new Map<string, string>();
      const week = (date: string) => {
        let w = weeks.get(date);
        if (w === undefined) {
          w = weekOf(date, o.weekStart ?? 1);
          weeks.set(date, w);
        }
        return w;
      };
      return calls.map((c) => (c.date === null ? undated : week(c.date)));
    }
    case "month":
      return calls.map((c) => (c.date === null ? undated : monthOf(c.date)));
    case "session":
      return calls.map((c) => c.root);
    case "project":
      return calls.map((c) => sessions.get(c.root)?.project ?? "(no project)");
    case "agent":
      return calls.map((c) => c.row.provider);
    case "model":
      return calls.map((c) => c.row.model ?? NONE);
    case "block":
      return blockKeys(calls);
  }
}

/** Each row's 5-hour window, as the ISO time it opened (a row's calls share one: rollup.ts). */
function blockKeys(calls: readonly Call[]): string[] {
  const order = calls.map((_, i) => i).filter((i) => calls[i]!.row.start !== null);
  order.sort((a, b) => calls[a]!.row.start! - calls[b]!.row.start!);
  const starts = blockStarts(order.map((i) => [calls[i]!.row.start!, calls[i]!.row.end!]));
  const keys = calls.map(() => "(no time recorded)");
  order.forEach((i, n) => {
    keys[i] = new Date(starts[n]!).toISOString();
  });
  return keys;
}
