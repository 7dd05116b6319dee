/**
 * The Usage view's three charts, each with the table of its numbers: cost per period stacked by agent or model,
 * the costliest sessions' tokens (a bar opens its session), and the share of input the cache served.
 */
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import type { UsageGroupView } from "../../src/live/usage-types.ts";
import { Link, navigate, paths } from "../router.tsx";
import type { ChartSpec } from "../ui/chart-canvas.tsx";
import { ChartFigure } from "../ui/chart-figure.tsx";
import { firstLine } from "../ui/format.ts";
import { TableScroll as Scroll } from "../ui/table-scroll.tsx";
import {
  cacheShare,
  compact,
  costSeries,
  count,
  money,
  type Period,
  percent,
  periodLabel,
  STACKS,
  type Stack,
  tokenSeries,
} from "./usage-data.ts";

const ownCost = (g: UsageGroupView): string => (g.recorded_cost === null ? "—" : money(g.recorded_cost));

export function CostChart(props: {
  groups: UsageGroupView[];
  period: Period;
  stack: Stack;
  onStack: (stack: Stack) => void;
}): JSX.Element {
  const { groups, period, stack } = props;
  const spec = useMemo<ChartSpec>(
    () => ({
      kind: "bar",
      labels: groups.map((g) => periodLabel(g.key, period)),
      series: costSeries(groups, stack),
      stacked: true,
      format: money,
    }),
    [groups, period, stack],
  );
  const own = groups.some((g) => g.recorded_cost !== null);
  const toggle = (
    <fieldset class="segmented">
      <legend class="visually-hidden">Split bars by</legend>
      {STACKS.map((s) => (
        <button key={s} type="button" aria-pressed={s === stack} onClick={() => props.onStack(s)}>
          by {s}
        </button>
      ))}
    </fieldset>
  );
  return (
    <ChartFigure
      id="usage-cost"
      title={`Cost per ${period}, by ${stack}`}
      about="By cairn's price table. Calls of a model it has no price for add no cost here."
      spec={spec}
      height={260}
      controls={toggle}
      table={
        <Scroll label={`Cost per ${period}, table`}>
          <table class="data-table">
            <thead>
              <tr>
                <th scope="col">{period}</th>
                <th scope="col">cost</th>
                {own && <th scope="col">agent's own</th>}
                {spec.series.map((s) => (
                  <th key={s.name} scope="col">
                    {s.name}
                  </th>
                ))}
                <th scope="col">tokens</th>
                <th scope="col">calls</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g, i) => (
                <tr key={g.key} data-key={g.key}>
                  <th scope="row">{g.key}</th>
                  <td data-field="cost">{money(g.cost)}</td>
                  {own && <td data-field="recorded_cost">{ownCost(g)}</td>}
                  {spec.series.map((s) => (
                    <td key={s.name}>{money(s.values[i] ?? 0)}</td>
                  ))}
                  <td data-field="total">{count(g.total)}</td>
                  <td data-field="calls">{count(g.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      }
    />
  );
}

const sessionName = (g: UsageGroupView): string => firstLine(g.session?.title, 80) || g.key.slice(0, 8);

export function SessionsChart(props: { groups: UsageGroupView[] }): JSX.Element {
  const { groups } = props;
  const spec = useMemo<ChartSpec>(
    () => ({
      kind: "bar",
      horizontal: true,
      stacked: true,
      labels: groups.map(sessionName),
      series: tokenSeries(groups),
      format: compact,
      labelChars: 32,
      onPick: (i) => {
        const g = groups[i];
        if (g) navigate(paths.timeline(g.key));
      },
    }),
    [groups],
  );
  return (
    <ChartFigure
      id="usage-sessions"
      title="Tokens of the costliest sessions"
      about="A bar opens its session. A subagent's calls count with the session that started it."
      spec={spec}
      height={groups.length * 34 + 48}
      table={
        <Scroll label="Tokens of the costliest sessions, table">
          <table class="data-table">
            <thead>
              <tr>
                <th scope="col">session</th>
                <th scope="col">agent</th>
                <th scope="col">tokens</th>
                <th scope="col">calls</th>
                <th scope="col">cost</th>
                <th scope="col">agent's own</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.key} data-key={g.key}>
                  <th scope="row">
                    <Link href={paths.timeline(g.key)}>{sessionName(g)}</Link>
                  </th>
                  <td>{g.session?.provider ?? "—"}</td>
                  <td data-field="total">{count(g.total)}</td>
                  <td data-field="calls">{count(g.calls)}</td>
                  <td data-field="cost">{money(g.cost)}</td>
                  <td data-field="recorded_cost">{ownCost(g)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      }
    />
  );
}

export function CacheChart(props: { groups: UsageGroupView[]; period: Period }): JSX.Element {
  const { groups, period } = props;
  const spec = useMemo<ChartSpec>(
    () => ({
      kind: "line",
      labels: groups.map((g) => periodLabel(g.key, period)),
      series: [{ name: "cache hit share", values: groups.map(cacheShare) }],
      format: (n) => `${Math.round(n * 100)}%`,
      max: 1,
    }),
    [groups, period],
  );
  return (
    <ChartFigure
      id="usage-cache"
      title={`Cache hit share per ${period}`}
      about="Cache reads over all input: fresh input, cache reads and cache writes."
      spec={spec}
      height={200}
      table={
        <Scroll label={`Cache hit share per ${period}, table`}>
          <table class="data-table">
            <thead>
              <tr>
                <th scope="col">{period}</th>
                <th scope="col">cache read</th>
                <th scope="col">fresh input</th>
                <th scope="col">cache write</th>
                <th scope="col">share</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.key} data-key={g.key}>
                  <th scope="row">{g.key}</th>
                  <td data-field="cache_read">{count(g.cache_read)}</td>
                  <td data-field="input">{count(g.input)}</td>
                  <td data-field="cache_write">{count(g.cache_write)}</td>
                  <td data-field="share">{percent(cacheShare(g))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      }
    />
  );
}
