/**
 * Usage: what the agents' model calls cost and how many tokens they took, as they recorded them, summed by day,
 * week or month in the reader's time zone. Three questions to the `usage` API: by period (the cost and cache
 * charts and the totals), by session (the costliest few) and by agent (each agent's own count beside cairn's).
 */
import type { JSX } from "preact";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { UsageAnswerView } from "../../src/live/usage-types.ts";
import { useJson } from "../api.ts";
import { Link, navigate, paths } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { CacheChart, CostChart, SessionsChart } from "./usage-charts.tsx";
import { PERIODS, type Period, STACKS, type Stack } from "./usage-data.ts";
import { type UsageFilter, UsageFilters } from "./usage-filters.tsx";
import { AgentTable, UsageGaps, UsageTotals } from "./usage-summary.tsx";

/** Sessions the sessions chart shows. */
export const TOP_SESSIONS = 10;

interface AgentsInIndex {
  by_agent: Array<{ provider: string }>;
}

function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

const timeZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

export function UsagePage(props: { query: URLSearchParams }): JSX.Element {
  const q = props.query;
  const filter: UsageFilter = {
    since: q.get("since") ?? "",
    until: q.get("until") ?? "",
    provider: q.get("provider") ?? "",
    period: pick<Period>(q.get("by"), PERIODS, "day"),
  };
  const stack = pick<Stack>(q.get("stack"), STACKS, "agent");
  const input = {
    since: filter.since,
    until: filter.until,
    provider: filter.provider ? [filter.provider] : undefined,
    timezone: timeZone(),
  };
  const periods = useJson<UsageAnswerView>(historyPath("usage", { ...input, by: filter.period }));
  const sessions = useJson<UsageAnswerView>(historyPath("usage", { ...input, by: "session", limit: TOP_SESSIONS }));
  const agents = useJson<UsageAnswerView>(historyPath("usage", { ...input, by: "agent" }));
  const overview = useJson<AgentsInIndex>(historyPath("overview"));
  const agentNames = (overview.data?.by_agent ?? []).map((a) => a.provider);
  if (filter.provider && !agentNames.includes(filter.provider)) agentNames.push(filter.provider);

  const state = { ...filter, by: filter.period, stack };
  const go = (change: Record<string, string | undefined>): void => {
    const next = { ...state, ...change };
    navigate(
      paths.usage({
        since: next.since,
        until: next.until,
        provider: next.provider,
        by: next.by === "day" ? undefined : next.by,
        stack: next.stack === "agent" ? undefined : next.stack,
      }),
      { replace: true },
    );
  };
  const answer = periods.data;
  const filtered = filter.since !== "" || filter.until !== "" || filter.provider !== "";

  return (
    <div class="page usage-page">
      <header class="page-head">
        <h1>Usage</h1>
        <UsageFilters filter={filter} agents={agentNames} go={go} />
      </header>
      {periods.state === "error" && <Failure error={periods.error} what="usage" />}
      {answer && (
        <div class="usage-body" aria-busy={periods.state === "loading"}>
          {answer.groups.length > 0 && <UsageTotals answer={answer} />}
          <UsageGaps answer={answer} />
          {answer.groups.length === 0 ? (
            <Empty title={filtered ? "No recorded usage matches these filters" : "No recorded usage yet"}>
              {filtered ? (
                <p>
                  Widen the time range, or <Link href={paths.usage()}>show all usage</Link>.
                </p>
              ) : (
                <p>
                  Run <code>cairn index</code> to read your agents' transcripts; the token counts they record show here.
                </p>
              )}
            </Empty>
          ) : (
            <>
              <CostChart
                groups={answer.groups}
                period={filter.period}
                stack={stack}
                onStack={(s) => go({ stack: s })}
              />
              {sessions.data && sessions.data.groups.length > 0 && <SessionsChart groups={sessions.data.groups} />}
              <CacheChart groups={answer.groups} period={filter.period} />
              {agents.data && agents.data.groups.length > 0 && <AgentTable groups={agents.data.groups} />}
              <p class="meta usage-prices">
                Days in {answer.time_zone}. Prices: {answer.prices.join("; ")}.
              </p>
            </>
          )}
        </div>
      )}
    </div>
  );
}
