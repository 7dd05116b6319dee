import type { Shaped } from "../../app/cairn.ts";
import { USAGE_HEADINGS, type UsageAnswer, usageNotes } from "../../app/catalog/usage.ts";
import { PROVIDERS } from "../../readers/agents.ts";
import type { UsageGrouping } from "../../usage/report.ts";
import { writeCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { bold, dim, oneLine } from "../format.ts";
import { INTERRUPTED, interruptedMessage } from "../index-run.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";
import { createProgress } from "../progress.ts";
import { explicitRoots } from "../roots.ts";

const USAGE = `Usage: cairn usage [--by day|week|month|block|session|project|agent|model] [--since DAY] [--until DAY]
                   [--provider P]... [--project NAME]... [--model NAME]... [--session ID] [--timezone ZONE]
                   [--week-start sunday|monday] [--limit N] [--no-index] [--root DIR]... [--json] [--db PATH]

Tokens every agent recorded for its model calls (input, output, cache reads and writes, reasoning), summed by day
(default), week, month, 5-hour block, session, project, agent or model, and what they cost by cairn's price table.
Where an agent priced its calls itself (pi), that cost is shown beside. A call written more than once (a resumed
session's copy, a streamed message) counts once. Days are counted in the system's time zone unless --timezone.
The index is brought up to date first (--no-index: report what it holds). Prices: data/prices.json, overridden by
a LiteLLM-format file at ~/.config/cairn/prices.json or the file CAIRN_PRICES names.`;

export const usageCommand: Command = {
  name: "usage",
  summary: "tokens and cost per day, session, project, agent or model, from what the agents recorded",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      by: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      provider: { type: "string", multiple: true },
      project: { type: "string", multiple: true },
      model: { type: "string", multiple: true },
      session: { type: "string" },
      timezone: { type: "string" },
      "week-start": { type: "string" },
      limit: { type: "string" },
      "no-index": { type: "boolean" },
      root: { type: "string", multiple: true },
      json: { type: "boolean" },
      db: { type: "string" },
    });
    // The app checks --by against the question's input (one list of groupings).
    const by = (values.by ?? "day") as UsageGrouping;
    const weekStart = values["week-start"];
    if (weekStart !== undefined && weekStart !== "sunday" && weekStart !== "monday")
      throw new UsageError(`unknown --week-start '${weekStart}' (use sunday or monday)`);
    for (const p of values.provider ?? [])
      if (!(PROVIDERS as readonly string[]).includes(p))
        throw new UsageError(`unknown provider '${p}' (use ${PROVIDERS.join(", ")})`);
    const limit = positiveInt("--limit", values.limit);
    const app = writeCairn(io, values.db, { json: values.json === true });
    try {
      if (values["no-index"] !== true) {
        // Only the agents asked about are brought up to date (their folders alone are walked).
        const asked = values.provider?.length ? new Set<string>(values.provider) : null;
        const roots = values.root?.length
          ? explicitRoots(values.root, io.cwd)
          : app.defaultRoots().filter((r) => asked?.has(r.provider) ?? true);
        // A first run reads every transcript: the progress line says so (on stderr, and only at a terminal).
        const progress = createProgress(io, values.json === true);
        const run = await app.index({
          roots,
          lock: "try",
          // Token counts need no vectors (the next search embeds what this run stored), nor an older index's texts
          // compressed (the next `cairn index` does it, with its progress line).
          embed: false,
          compact: false,
          onProgress: (p) => progress.update(p),
          ...(io.signal ? { signal: io.signal } : {}),
        });
        progress.done();
        if (run.interrupted) {
          io.stderr.write(interruptedMessage("cairn usage", run));
          return INTERRUPTED;
        }
      }
      const answer = app.usage({
        by,
        ...(values.since === undefined ? {} : { since: values.since }),
        ...(values.until === undefined ? {} : { until: values.until }),
        ...(values.provider ? { provider: values.provider } : {}),
        ...(values.project ? { project: values.project } : {}),
        ...(values.model ? { model: values.model } : {}),
        ...(values.session === undefined ? {} : { session: values.session }),
        ...(values.timezone === undefined ? {} : { timezone: values.timezone }),
        ...(weekStart === undefined ? {} : { week_start: weekStart as "sunday" | "monday" }),
        ...(limit === undefined ? {} : { limit }),
      });
      if (values.json) writeJson(io, answer);
      else print(io, answer);
      return 0;
    } finally {
      app.close();
    }
  },
};

const n = (v: number) => v.toLocaleString("en-US");
export const dollars = (v: number) => `$${v.toFixed(2)}`;

function print(io: CliIo, a: Shaped<UsageAnswer>): void {
  const out = (s = "") => io.stdout.write(`${s}\n`);
  if (a.totals.calls === 0) {
    out("no token counts recorded in this period");
    noUsage(io, a);
    return;
  }
  const own = a.totals.recorded_cost !== null;
  const head = [
    USAGE_HEADINGS[a.by],
    "Input",
    "Output",
    "Cache write",
    "Cache read",
    "Total",
    "Cost",
    ...(own ? ["Agent's own"] : []),
  ];
  const rows = a.groups.map((g) => [
    rowLabel(a.by, g),
    n(g.input),
    n(g.output),
    n(g.cache_write),
    n(g.cache_read),
    n(g.total),
    g.unpriced_calls > 0 ? `${dollars(g.cost)}*` : dollars(g.cost),
    ...(own ? [g.recorded_cost === null ? "" : dollars(g.recorded_cost)] : []),
  ]);
  const t = a.totals;
  const total = ["Total", n(t.input), n(t.output), n(t.cache_write), n(t.cache_read), n(t.total), dollars(t.cost)];
  if (own) total.push(t.recorded_cost === null ? "" : dollars(t.recorded_cost));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length), total[i]!.length));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[0]!) : c.padStart(widths[i]!))).join("  ");
  out(bold(io, line(head)));
  for (const r of rows) out(line(r));
  if (a.more > 0) out(dim(io, `… ${n(a.more)} more (--limit)`));
  out(bold(io, line(total)));
  const notes: string[] = [];
  if (t.reasoning > 0) notes.push(`reasoning ${n(t.reasoning)} of the output tokens`);
  const unpriced = usageNotes(a).unpriced;
  if (unpriced) notes.push(unpriced);
  notes.push(`days in ${a.time_zone}; prices: ${a.prices.at(-1)}`);
  for (const note of notes) out(dim(io, note));
  noUsage(io, a);
}

function noUsage(io: CliIo, a: Shaped<UsageAnswer>): void {
  const unknown = usageNotes(a).unknown;
  if (unknown) io.stdout.write(`${dim(io, unknown)}\n`);
}

function rowLabel(by: UsageGrouping, g: Shaped<UsageAnswer>["groups"][number]): string {
  if (by === "block") return g.key.replace("T", " ").slice(0, 16);
  if (by === "session" && g.session) {
    const s = g.session;
    return `${s.session_id.slice(0, 8)} ${s.provider} ${oneLine(s.project ?? "", 14)} ${oneLine(s.title ?? "", 30)}`;
  }
  if (by !== "day" && by !== "week" && by !== "month") return g.key;
  const models = g.by_model.map((m) => m.name);
  return `${g.key}  ${oneLine(models.slice(0, 2).join(", ") + (models.length > 2 ? ", …" : ""), 44)}`;
}
