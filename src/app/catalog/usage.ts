/**
 * `usage`: the tokens every agent recorded, summed by period, session, project, agent or model, with their cost by
 * cairn's price table (and the agent's own, where it priced its calls).
 */
import { CairnError } from "../../common/errors.ts";
import { parseTime } from "../../search/query.ts";
import { resolveSessionId } from "../../store/resolve.ts";
import type { Provider } from "../../topology/types.ts";
import { LocalDates, UTC, weekOf } from "../../usage/periods.ts";
import {
  PERIOD_GROUPINGS,
  type UsageGrouping,
  type UsageReport,
  type UsageSession,
  usageReport,
} from "../../usage/report.ts";
import { loadPrices } from "../prices.ts";
import type { Input } from "./inputs.ts";
import { type QuestionContext, question } from "./question.ts";
import { usageBuckets } from "./usage-buckets.ts";

export type UsageRequest = Input<"usage">;

/** What a table's first column is called for each grouping, as every surface heads it. */
export const USAGE_HEADINGS: Record<UsageGrouping, string> = {
  day: "Day",
  week: "Week of",
  month: "Month",
  block: "5-hour block (UTC)",
  session: "Session",
  project: "Project",
  agent: "Agent",
  model: "Model",
};

export { PERIOD_GROUPINGS };

/** The notes every surface prints under a report: the models it could not price, the agents that record nothing. */
export function usageNotes(a: Pick<UsageAnswer, "unpriced_models" | "agents_without_usage">): {
  unpriced: string | null;
  unknown: string | null;
} {
  const models = a.unpriced_models.map((m) => m.model);
  const more = models.length > 4 ? ", …" : "";
  return {
    unpriced:
      models.length > 0
        ? `* not priced (no price for ${models.slice(0, 4).join(", ")}${more}): their tokens count, their cost is not known`
        : null,
    unknown:
      a.agents_without_usage.length > 0
        ? `no token counts recorded by ${a.agents_without_usage.join(", ")}: their usage is unknown, not counted`
        : null,
  };
}

export interface UsageAnswer extends UsageReport {
  /** Groups left out by the limit (the earliest periods, or the cheapest of the rest); the totals count them. */
  more: number;
  /** Agents with sessions in the index that recorded no token counts: their usage is unknown, not zero. */
  agents_without_usage: Provider[];
}

export const usage = question({
  name: "usage",
  summary: "tokens and cost every agent recorded, by day, week, month, 5-hour block, session, project, agent or model",
  input: "usage",
  // Model names come from the transcripts through the plain token rows, unscanned: the answer is scanned whole.
  scan: true,
  answer(ctx, given: UsageRequest | undefined): UsageAnswer {
    const req = given ?? {};
    const store = ctx.store();
    const { sessions, withSessions } = usageSessions(ctx, req.provider);
    const rows = usageBuckets(ctx, req.provider);
    const zone = timeZoneOf(req.timezone);
    const dates = new LocalDates(zone);
    const report = usageReport(rows, sessions, loadPrices(ctx.env), {
      by: req.by ?? "day",
      ...(zone === undefined ? { systemZone: systemZone(ctx) } : { timeZone: zone }),
      ...(req.since === undefined ? {} : { since: dayOf(ctx, dates, req.since, false) }),
      ...(req.until === undefined ? {} : { until: dayOf(ctx, dates, req.until, true) }),
      ...(req.week_start === "sunday" ? { weekStart: 0 } : {}),
      ...(req.provider ? { providers: req.provider } : {}),
      ...(req.project ? { projects: req.project } : {}),
      ...(req.model ? { models: req.model } : {}),
      ...(req.session === undefined ? {} : { session: resolveSessionId(store, req.session).session_id }),
    });
    // Rows were read for the agents asked about (all, without --provider): only those can be said to lack usage.
    const recorded = new Set(rows.map((r) => r.provider));
    const asked = req.provider?.length ? new Set<string>(req.provider) : null;
    const limit = Math.min(req.limit ?? report.groups.length, report.groups.length);
    // Periods are listed oldest first and the latest are kept; the rest are listed costliest first.
    return {
      ...report,
      groups: PERIOD_GROUPINGS.has(report.by)
        ? report.groups.slice(report.groups.length - limit)
        : report.groups.slice(0, limit),
      more: report.groups.length - limit,
      agents_without_usage: [...withSessions].filter((p) => !recorded.has(p) && (asked?.has(p) ?? true)).sort(),
    };
  },
});

/** The sessions calls are shown under, of the agents asked about (a subagent is its parent's agent). */
function usageSessions(
  ctx: QuestionContext,
  providers?: readonly Provider[],
): { sessions: Map<string, UsageSession>; withSessions: Set<Provider> } {
  const sessions = new Map<string, UsageSession>();
  const withSessions = new Set<Provider>();
  const filter = providers?.length ? { provider: [...providers] } : {};
  for (const s of ctx.store().listSessions({ ...filter, limit: Number.MAX_SAFE_INTEGER })) {
    sessions.set(s.session_id, s);
    withSessions.add(s.provider);
  }
  return { sessions, withSessions };
}

/** This week's spend (weeks from Monday, in the system's time zone) and its most expensive session. */
export interface WeekUsage {
  since: string;
  cost: number;
  total: number;
  unpriced_calls: number;
  top: { session_id: string; provider: Provider; title: string | null; cost: number; total: number } | null;
}

export function weekUsage(ctx: QuestionContext): WeekUsage | null {
  const dates = new LocalDates();
  const since = weekOf(dates.date(ctx.now().toISOString())!, 1);
  const { sessions } = usageSessions(ctx);
  const r = usageReport(usageBuckets(ctx), sessions, loadPrices(ctx.env), { by: "session", since });
  if (r.totals.calls === 0) return null;
  const top = r.groups[0];
  return {
    since,
    cost: r.totals.cost,
    total: r.totals.total,
    unpriced_calls: r.totals.unpriced_calls,
    top: top?.session
      ? {
          session_id: top.key,
          provider: top.session.provider,
          title: top.session.title,
          cost: top.cost,
          total: top.total,
        }
      : null,
  };
}

/** The system's zone by the name TZ gives it, else by its offset now (naming it would load the Intl data). */
function systemZone(ctx: QuestionContext): string {
  const tz = ctx.env["TZ"];
  if (tz) return tz.replace(/^:/, "");
  const offset = -ctx.now().getTimezoneOffset();
  const hm = `${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
  return `local time (UTC${offset < 0 ? "-" : "+"}${hm})`;
}

function timeZoneOf(zone: string | undefined): string | undefined {
  if (zone === undefined || UTC.has(zone.toUpperCase())) return zone;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new CairnError("usage", `unknown time zone '${zone}'`, "Give an IANA name such as Europe/Berlin or UTC.");
  }
}

/** A day as given (2026-11-02 or 20261102), or the local day of a relative time (7d, yesterday). */
function dayOf(ctx: QuestionContext, dates: LocalDates, value: string, end: boolean): string {
  const compact = /^(\d{4})-?(\d\d)-?(\d\d)$/.exec(value);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  return dates.date(parseTime(value, ctx.now(), `${end ? "until" : "since"} ${value}`, end))!;
}
