/**
 * The top of the Usage view: what the filtered span cost, in tokens and calls; what the agents' own count says
 * where they priced their calls (pi); and what the numbers leave out: agents that record no token counts (their
 * usage is unknown, not zero) and models without a price.
 */
import type { JSX } from "preact";
import type { UsageAnswerView, UsageGroupView } from "../../src/live/usage-types.ts";
import { TableScroll } from "../ui/table-scroll.tsx";
import { compact, count, money, spanLabel } from "./usage-data.ts";

function Figure(props: { label: string; value: string; detail?: string; field: string }): JSX.Element {
  return (
    <div class="usage-figure" data-field={props.field}>
      <dt>{props.label}</dt>
      <dd>
        <span class="usage-figure-value">{props.value}</span>
        {props.detail && <span class="meta">{props.detail}</span>}
      </dd>
    </div>
  );
}

export function UsageTotals(props: { answer: UsageAnswerView }): JSX.Element {
  const { totals, since, until } = props.answer;
  return (
    <section class="usage-totals" aria-label="Totals">
      <p class="meta usage-span">{spanLabel(since, until)}</p>
      <dl>
        <Figure field="cost" label="Spend" value={money(totals.cost)} detail="by cairn's prices" />
        <Figure
          field="total"
          label="Tokens"
          value={compact(totals.total)}
          detail={`${count(totals.total)}: ${compact(totals.cache_read)} cache read, ${compact(totals.input)} input, ${compact(totals.output)} output`}
        />
        <Figure field="calls" label="Calls" value={count(totals.calls)} />
        {totals.recorded_cost !== null && (
          <Figure
            field="recorded_cost"
            label="Agents' own count"
            value={money(totals.recorded_cost)}
            detail="for the calls they priced themselves (see per agent)"
          />
        )}
      </dl>
    </section>
  );
}

/** Usage that the totals do not show: agents without token counts, calls without a price. */
export function UsageGaps(props: { answer: UsageAnswerView }): JSX.Element | null {
  const { agents_without_usage: silent, unpriced_models: unpriced } = props.answer;
  if (silent.length === 0 && unpriced.length === 0) return null;
  return (
    <section class="usage-gaps" aria-label="Not counted">
      {silent.length > 0 && (
        <p id="usage-silent">
          <strong>Usage unknown, not zero:</strong> {silent.join(", ")}{" "}
          {silent.length === 1 ? "has sessions but records" : "have sessions but record"} no token counts.
        </p>
      )}
      {unpriced.length > 0 && (
        <p id="usage-unpriced">
          <strong>No price known</strong> for{" "}
          {unpriced.map((m, i) => (
            <span key={m.model}>
              {i > 0 && ", "}
              <code>{m.model}</code> ({count(m.calls)} {m.calls === 1 ? "call" : "calls"})
            </span>
          ))}
          : their tokens count, their cost is left out of the spend.
        </p>
      )}
    </section>
  );
}

/** Each agent's spend by cairn's prices beside its own count, where it keeps one. */
export function AgentTable(props: { groups: UsageGroupView[] }): JSX.Element {
  return (
    <section class="usage-agents" aria-labelledby="usage-agents-title">
      <h2 id="usage-agents-title">Per agent</h2>
      <TableScroll label="Per agent, table">
        <table class="data-table">
          <thead>
            <tr>
              <th scope="col">agent</th>
              <th scope="col">calls</th>
              <th scope="col">tokens</th>
              <th scope="col">cairn's cost</th>
              <th scope="col">agent's own</th>
            </tr>
          </thead>
          <tbody>
            {props.groups.map((g) => (
              <tr key={g.key} data-key={g.key}>
                <th scope="row">{g.key}</th>
                <td data-field="calls">{count(g.calls)}</td>
                <td data-field="total">{compact(g.total)}</td>
                <td data-field="cost">{money(g.cost)}</td>
                <td data-field="recorded_cost">{g.recorded_cost === null ? "—" : money(g.recorded_cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
