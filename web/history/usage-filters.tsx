/**
 * The Usage view's filters: a quick time range or a first and last day, one agent, and the period the charts sum
 * by. They live in the URL (`/usage?since=30d&provider=pi&by=week`), so a view can be bookmarked.
 */
import type { JSX } from "preact";
import { PERIODS, type Period, RANGES } from "./usage-data.ts";

export interface UsageFilter {
  since: string;
  until: string;
  provider: string;
  period: Period;
}

const isDay = (v: string): boolean => /^\d{4}-\d\d-\d\d$/.test(v);

export function UsageFilters(props: {
  filter: UsageFilter;
  agents: string[];
  go: (change: Record<string, string | undefined>) => void;
}): JSX.Element {
  const { filter, go } = props;
  return (
    <form class="filters usage-filters" aria-label="Filter usage" onSubmit={(e) => e.preventDefault()}>
      <fieldset class="segmented">
        <legend class="visually-hidden">Time range</legend>
        {RANGES.map((r) => (
          <button
            key={r.value}
            type="button"
            aria-pressed={filter.since === r.value && filter.until === ""}
            onClick={() => go({ since: r.value || undefined, until: undefined })}
          >
            {r.label}
          </button>
        ))}
      </fieldset>
      <label>
        From{" "}
        <input
          id="usage-since"
          type="date"
          value={isDay(filter.since) ? filter.since : ""}
          onChange={(e) => go({ since: e.currentTarget.value || undefined })}
        />
      </label>
      <label>
        To{" "}
        <input
          id="usage-until"
          type="date"
          value={isDay(filter.until) ? filter.until : ""}
          onChange={(e) => go({ until: e.currentTarget.value || undefined })}
        />
      </label>
      <label>
        Agent{" "}
        <select
          id="usage-provider"
          value={filter.provider}
          onChange={(e) => go({ provider: e.currentTarget.value || undefined })}
        >
          <option value="">all agents</option>
          {props.agents.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="segmented">
        <legend class="visually-hidden">Sum by</legend>
        {PERIODS.map((p) => (
          <button key={p} type="button" aria-pressed={filter.period === p} onClick={() => go({ by: p })}>
            {p}
          </button>
        ))}
      </fieldset>
    </form>
  );
}
