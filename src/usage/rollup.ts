/**
 * Counted calls rolled up: the calls of one session, agent, model and quarter hour summed into one row, which is all
 * a report needs. A report then reads hundreds of rows instead of tens of thousands, and the rows can be kept between
 * reports while the index's calls stay the same (app/catalog/usage.ts). Nothing a report shows is lost:
 *
 * - Days, weeks and months in any zone: every zone's offset today is a whole number of quarter hours, so local
 *   midnight never falls inside a quarter.
 * - 5-hour blocks: a window opens on a whole hour and closes five hours later, so it never ends inside a quarter
 *   either; a call exactly on a quarter hour (agents that record whole seconds make them) gets a row of its own,
 *   since a window ending there holds it while the rest of the quarter opens the next one. An idle gap of five hours
 *   is longer than any row's span.
 * - Prices: a tier depends on one call's counts. Anthropic's applies field by field to the tokens above 200k, summed
 *   per field (`above`); other providers price a whole call higher once its prompt passes 200k, so such calls get
 *   rows of their own (`high`). Fast mode's calls do too.
 */
import type { Provider, UsageCall } from "../topology/types.ts";

/** The counts a call's price reads, in this order (`above` holds each one's tokens above the tier). */
export const PRICED_FIELDS = ["input", "output", "cache_read", "cache_write", "cache_write_1h"] as const;

export const TIER = 200_000;
const QUARTER = 900_000;

export interface UsageBucket {
  session_id: string;
  provider: Provider;
  model: string | null;
  fast: boolean;
  /** Its calls' prompts passed the tier (input, cache reads and writes together). */
  high: boolean;
  /** The first and last call's times as recorded (the least and greatest as text), or null when undated. */
  first: string | null;
  last: string | null;
  /** The same as instants (epoch ms), null when the time is no time. */
  start: number | null;
  end: number | null;
  calls: number;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cache_write_1h: number;
  reasoning: number;
  /** What the agent priced these calls at itself, or null when it priced none of them. */
  cost: number | null;
  /** Per priced field, the tokens above the tier summed over the calls. */
  above: [number, number, number, number, number];
}

/** Input, cache reads and writes of one call: what a tier is decided on. */
export function promptOf(r: Pick<UsageCall, "input" | "cache_read" | "cache_write" | "cache_write_1h">): number {
  return r.input + r.cache_read + r.cache_write + r.cache_write_1h;
}

/** The rows of calls already counted (calls.ts), in the order of each row's first call. */
export function rollUp(calls: readonly UsageCall[]): UsageBucket[] {
  const out: UsageBucket[] = [];
  // Per session, per quarter: the few rows of its models and flags (a string key per call cost a report 1 µs a call).
  const sessions = new Map<string, Map<number | string, UsageBucket[]>>();
  for (const c of calls) {
    const t = c.timestamp === null ? Number.NaN : Date.parse(c.timestamp);
    const high = promptOf(c) > TIER;
    // A call on a quarter hour to the millisecond: a quarter of its own, told apart by its sign.
    const quarter = Number.isNaN(t)
      ? `?${c.timestamp}`
      : t % QUARTER === 0
        ? -1 - t / QUARTER
        : Math.floor(t / QUARTER);
    let quarters = sessions.get(c.session_id);
    if (!quarters) {
      quarters = new Map();
      sessions.set(c.session_id, quarters);
    }
    let rows = quarters.get(quarter);
    if (!rows) {
      rows = [];
      quarters.set(quarter, rows);
    }
    let b = rows.find((r) => r.model === c.model && r.provider === c.provider && r.fast === c.fast && r.high === high);
    if (!b) {
      b = bucketOf(c, high, t);
      rows.push(b);
      out.push(b);
    }
    add(b, c, t);
  }
  return out;
}

function bucketOf(c: UsageCall, high: boolean, t: number): UsageBucket {
  const at = Number.isNaN(t) ? null : t;
  return {
    session_id: c.session_id,
    provider: c.provider,
    model: c.model,
    fast: c.fast,
    high,
    first: c.timestamp,
    last: c.timestamp,
    start: at,
    end: at,
    calls: 0,
    input: 0,
    output: 0,
    cache_read: 0,
    cache_write: 0,
    cache_write_1h: 0,
    reasoning: 0,
    cost: null,
    above: [0, 0, 0, 0, 0],
  };
}

function add(b: UsageBucket, c: UsageCall, t: number): void {
  b.calls++;
  b.input += c.input;
  b.output += c.output;
  b.cache_read += c.cache_read;
  b.cache_write += c.cache_write;
  b.cache_write_1h += c.cache_write_1h;
  b.reasoning += c.reasoning;
  if (c.cost !== null) b.cost = (b.cost ?? 0) + c.cost;
  const above = b.above;
  if (c.input > TIER) above[0] += c.input - TIER;
  if (c.output > TIER) above[1] += c.output - TIER;
  if (c.cache_read > TIER) above[2] += c.cache_read - TIER;
  if (c.cache_write > TIER) above[3] += c.cache_write - TIER;
  if (c.cache_write_1h > TIER) above[4] += c.cache_write_1h - TIER;
  const ts = c.timestamp;
  if (ts !== null && ts !== b.first && ts !== b.last) {
    if (b.first === null || ts < b.first) b.first = ts;
    if (b.last === null || ts > b.last) b.last = ts;
  }
  if (!Number.isNaN(t)) {
    if (b.start === null || t < b.start) b.start = t;
    if (b.end === null || t > b.end) b.end = t;
  }
}

/** The sum of a row's tokens, as a call's total counts them. */
export function bucketTotal(b: UsageBucket): number {
  return b.input + b.output + b.cache_read + b.cache_write + b.cache_write_1h;
}

/** A row as a flat array (a kept roll-up is a few hundred of them, read at every report). */
export function bucketValues(b: UsageBucket): unknown[] {
  return [
    b.session_id,
    b.provider,
    b.model,
    b.fast ? 1 : 0,
    b.high ? 1 : 0,
    b.first,
    b.last,
    b.start,
    b.end,
    b.calls,
    b.input,
    b.output,
    b.cache_read,
    b.cache_write,
    b.cache_write_1h,
    b.reasoning,
    b.cost,
    ...b.above,
  ];
}

export function bucketOfValues(v: readonly unknown[]): UsageBucket {
  const n = (i: number) => v[i] as number;
  return {
    session_id: v[0] as string,
    provider: v[1] as Provider,
    model: v[2] as string | null,
    fast: v[3] === 1,
    high: v[4] === 1,
    first: v[5] as string | null,
    last: v[6] as string | null,
    start: v[7] as number | null,
    end: v[8] as number | null,
    calls: n(9),
    input: n(10),
    output: n(11),
    cache_read: n(12),
    cache_write: n(13),
    cache_write_1h: n(14),
    reasoning: n(15),
    cost: v[16] as number | null,
    above: [n(17), n(18), n(19), n(20), n(21)],
  };
}
