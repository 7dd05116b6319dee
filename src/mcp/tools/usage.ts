/** `usage`: the tokens the agents recorded for their model calls, summed by period, session, project, agent or model, priced. */

import type { z } from "zod";
import type { Shaped } from "../../app/cairn.ts";
import { PERIOD_GROUPINGS, type UsageAnswer } from "../../app/catalog/usage.ts";
import { AGENT_NAMES } from "../../readers/agents.ts";
import { fitRange, jsonSize, listBudget, oneLine } from "../bounded-output.ts";
import { dotted } from "../format.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { group, inputSchema } from "./usage-schema.ts";

/** A row's models and agents shown: the costliest few, enough to say what drove it. */
const PARTS_SHOWN = 3;

const DESCRIPTION = `Tokens and cost of the model calls ${AGENT_NAMES} recorded in their transcripts (input, output, cache reads and writes, reasoning), each call counted once, summed by day (default), week, month, block (5-hour window), session, project, agent or model, priced by cairn's price table (and by the agent's own count where it priced its calls). Use it for "how much did this session cost" (by=session, session=ID), "what did this week cost" (by=week or since=7d), "which model used the most tokens" (by=model), "which project costs most" (by=project). Days are counted in the machine's time zone unless timezone is given. Periods come newest last, the other groupings costliest first; the totals count every row, shown or not. Agents that recorded no token counts are named: their usage is unknown, not zero.`;

type GroupData = z.infer<typeof group>;
type Args = z.infer<z.ZodObject<typeof inputSchema>>;
type Answer = Shaped<UsageAnswer>;
type Group = Answer["groups"][number];

export const usageTool: CairnTool<Args> = {
  name: "usage",
  title: "Token usage and cost",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    async ({ limit, ...given }) => {
      const args = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      // The app keeps the latest periods, or the costliest rows of the other groupings.
      const answer = await ctx.cairn.usage({ ...args, limit });
      const periods = PERIOD_GROUPINGS.has(answer.by);
      const groups = answer.groups.map(groupData);
      const texts = groups.map((g) => groupLine(answer.by, g));
      const { start, end } = fitRange(
        groups.map((g, i) => ({ text: texts[i]!.length + 1, json: jsonSize(g) + 1 })),
        periods ? groups.length - 1 : 0,
        listBudget(),
      );
      const all = answer.groups.length + answer.more;
      const more = all - (end - start);
      const truncated =
        end - start < groups.length
          ? `showing ${end - start} of ${all} rows to stay within the size bound; lower limit or narrow with since, until, provider, project or model`
          : null;
      const lines = [head(answer), ...(answer.totals.calls > 0 ? [HEADER] : []), ...texts.slice(start, end)];
      if (more > 0)
        lines.push(
          truncated
            ? `… ${truncated}`
            : `… ${more} more ${periods ? "earlier " : ""}row${more === 1 ? "" : "s"} (limit=${limit}); the totals count them`,
        );
      lines.push(...notes(answer));
      return {
        text: lines.join("\n").trimEnd(),
        structured: {
          by: answer.by,
          time_zone: answer.time_zone,
          since: answer.since,
          until: answer.until,
          totals: answer.totals,
          groups: groups.slice(start, end),
          more,
          unpriced_models: answer.unpriced_models,
          agents_without_usage: answer.agents_without_usage,
          prices: answer.prices,
          truncated,
        },
      };
    },
};

function groupData(g: Group): GroupData {
  const { by_model, by_agent, session, ...rest } = g;
  return {
    ...rest,
    by_model: by_model.slice(0, PARTS_SHOWN),
    by_agent: by_agent.slice(0, PARTS_SHOWN),
    ...(session
      ? {
          session: {
            session_id: session.session_id,
            provider: session.provider,
            kind: session.kind,
            project: session.project,
            title: session.title === null ? null : oneLine(session.title, 120),
          },
        }
      : {}),
  };
}

const n = (v: number) => v.toLocaleString("en-US");
const usd = (v: number) => `$${v.toFixed(2)}`;
const cost = (t: { cost: number; unpriced_calls: number }) => `${usd(t.cost)}${t.unpriced_calls > 0 ? "*" : ""}`;

function head(a: Answer): string {
  const span = a.since || a.until ? ` ${a.since ?? "…"} → ${a.until ?? "…"}` : "";
  if (a.totals.calls === 0) return `no token counts recorded${span ? ` in${span}` : ""} (usage by ${a.by})`;
  const t = a.totals;
  const own = t.recorded_cost === null ? "" : ` (the agents' own count: ${usd(t.recorded_cost)})`;
  return `usage by ${a.by}${span}, days in ${a.time_zone}: ${n(t.total)} tokens, ${cost(t)}${own} over ${n(t.calls)} calls in ${a.groups.length} rows`;
}

const HEADER = "row | total tokens | cost | input / output / cache write / cache read | models";

function groupLine(by: string, g: GroupData): string {
  const label =
    by === "session" && g.session
      ? `session ${dotted(g.key, g.session.provider, g.session.project, g.session.title ? `"${oneLine(g.session.title, 60)}"` : null)}`
      : g.key;
  const models = by === "model" ? "" : g.by_model.map((m) => `${m.name} ${usd(m.cost)}`).join(", ");
  return `${label} | ${n(g.total)} | ${cost(g)} | ${n(g.input)} / ${n(g.output)} / ${n(g.cache_write)} / ${n(g.cache_read)} | ${models}`;
}

function notes(a: Answer): string[] {
  const out: string[] = [];
  if (a.totals.calls > 0) {
    const t = a.totals;
    out.push(
      `total | ${n(t.total)} | ${cost(t)} | ${n(t.input)} / ${n(t.output)} / ${n(t.cache_write)} / ${n(t.cache_read)} |${t.reasoning > 0 ? ` reasoning ${n(t.reasoning)} of the output` : ""}`,
    );
  }
  if (a.unpriced_models.length > 0)
    out.push(
      `* not priced (the price table lists no ${a.unpriced_models
        .slice(0, 5)
        .map((m) => m.model)
        .join(", ")}): their tokens count, their cost is not known`,
    );
  if (a.agents_without_usage.length > 0)
    out.push(`no token counts recorded by ${a.agents_without_usage.join(", ")}: their usage is unknown, not zero`);
  if (a.by === "session" && a.groups.length > 0)
    out.push("a session's row counts its subagents' calls; resume_brief or session_timeline open one");
  out.push(`prices: ${a.prices.join(" then ")}`);
  return out;
}
