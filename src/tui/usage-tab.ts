/**
 * The Usage tab: the tokens and cost every agent recorded (what `cairn usage` prints), as a table of the rows of one
 * grouping (day by default) with a bar of each row's cost beside it, the total, and what the figures leave out.
 * Read in the search thread: on a large index the report sums every recorded call. Enter on a session's row opens
 * the session.
 */
import { truncateToWidth, visibleWidth } from "@earendil-works/pi-tui";
import type { Shaped } from "../app/cairn.ts";
import { USAGE_HEADINGS, type UsageAnswer, usageNotes } from "../app/catalog/usage.ts";
import type { UsageGrouping } from "../usage/report.ts";
import type { Cursor } from "./cursor.ts";
import { type Line, oneLine, type Wrap } from "./lines.ts";
import type { Style } from "./style.ts";

export interface UsageTab {
  by: UsageGrouping;
  /** Null while it is being read. */
  answer: Shaped<UsageAnswer> | null;
  error: string | null;
  /** The selection is still to be placed: on the latest period, or the costliest row. */
  pending: boolean;
}

/** What the tab draws: lines that stay at the top of the pane, and the table and notes that scroll under them. */
export interface UsageView {
  head: string[];
  lines: Line[];
}

/** The key that shows each grouping, in the order the tab lists them. */
export const USAGE_KEYS: ReadonlyArray<[string, UsageGrouping]> = [
  ["d", "day"],
  ["w", "week"],
  ["m", "month"],
  ["b", "block"],
  ["s", "session"],
  ["p", "project"],
  ["a", "agent"],
  ["M", "model"],
];

/** The grouping a key shows; ← and → step through them in order. */
export function usageGroupingFor(key: string, current: UsageGrouping, step: -1 | 0 | 1 = 0): UsageGrouping | null {
  if (step !== 0) {
    const at = USAGE_KEYS.findIndex(([, by]) => by === current);
    return USAGE_KEYS[(at + step + USAGE_KEYS.length) % USAGE_KEYS.length]![1];
  }
  return USAGE_KEYS.find(([k]) => k === key)?.[1] ?? null;
}

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A bar `fraction` of `width` columns long, in eighths of a column; anything above zero shows. */
export function costBar(fraction: number, width: number): string {
  if (width <= 0 || !(fraction > 0)) return "";
  const eighths = Math.max(1, Math.round(Math.min(1, fraction) * width * 8));
  return "█".repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

export const usd = (v: number): string => `$${v.toFixed(2)}`;
const full = (v: number): string => v.toLocaleString("en-US");

/** `75.9M`: for a pane too narrow for every digit. */
export function compact(v: number): string {
  for (const [unit, size] of [
    ["B", 1e9],
    ["M", 1e6],
    ["k", 1e3],
  ] as const)
    if (v >= size) return `${(v / size).toFixed(v >= size * 100 ? 0 : 1)}${unit}`;
  return String(v);
}

type Group = Shaped<UsageAnswer>["groups"][number];

function rowLabel(by: UsageGrouping, g: Group): string {
  if (by === "block") return g.key.replace("T", " ").slice(0, 16);
  const s = g.session;
  if (by === "session" && s)
    return `${s.session_short ?? s.session_id.slice(0, 8)} ${s.provider} ${s.project ?? "-"} ${oneLine(s.title ?? "")}`;
  return g.key;
}

/** The grouping's keys, the shown one bracketed. */
export function groupingKeys(by: UsageGrouping, style: Style): string {
  return USAGE_KEYS.map(([k, name]) => (name === by ? style.bold(`[${k} ${name}]`) : style.dim(`${k} ${name}`))).join(
    " ",
  );
}

/**
 * The tab at a width: the totals and the grouping keys on top, then the table with its bars, its total and the
 * notes. A new report selects its latest period (the table's end in view) or its costliest row.
 */
export function usageView(
  tab: UsageTab,
  cursor: Cursor,
  width: number,
  height: number,
  style: Style,
  wrap: Wrap,
): UsageView {
  const keys = wrap(groupingKeys(tab.by, style), width);
  const a = tab.answer;
  if (tab.error) return { head: keys, lines: wrap(tab.error, width).map((w) => ({ text: style.red(w) })) };
  if (!a) return { head: keys, lines: [{ text: style.dim(`reading the usage by ${tab.by}…`) }] };
  const t = a.totals;
  const rows = `${a.groups.length} ${a.groups.length === 1 ? "row" : "rows"}`;
  const heading =
    t.calls === 0
      ? "No token counts recorded"
      : `Usage by ${a.by} · ${rows} · ${full(t.total)} tokens · ${usd(t.cost)}${t.unpriced_calls ? "*" : ""}`;
  const { header, lines } = t.calls > 0 ? table(a, width, style) : { header: null, lines: [] as Line[] };
  for (const note of notes(a)) for (const w of wrap(note, width)) lines.push({ text: style.dim(w) });
  const head = [...wrap(style.bold(heading), width), ...keys, ...(header ? [header] : [])];
  if (tab.pending && tab.answer) {
    tab.pending = false;
    cursor.setCount(lines.length);
    const periods = a.by === "day" || a.by === "week" || a.by === "month" || a.by === "block";
    cursor.moveTo(periods ? a.groups.length - 1 : 0);
    cursor.top = periods ? Math.max(0, lines.length - Math.max(1, height - head.length)) : 0;
  }
  return { head, lines };
}

function table(a: Shaped<UsageAnswer>, width: number, style: Style): { header: string; lines: Line[] } {
  const t = a.totals;
  const cost = (g: { cost: number; unpriced_calls: number }) => `${usd(g.cost)}${g.unpriced_calls > 0 ? "*" : ""}`;
  const labels = a.groups.map((g) => rowLabel(a.by, g));
  const costW = Math.max(4, visibleWidth(cost(t)), ...a.groups.map((g) => cost(g).length));
  const labelNeed = Math.max(USAGE_HEADINGS[a.by].length, 5, ...labels.map((l) => visibleWidth(l)));
  // Every digit where there is room for them and a bar of 8 beside a 10-column label; else 75.9M.
  const fullW = Math.max(6, full(t.total).length);
  const tokens = width - Math.min(labelNeed, 10) - fullW - costW - 3 >= 8 ? full : compact;
  const tokW = Math.max(6, tokens(t.total).length);
  const numbers = tokW + 1 + costW;
  const labelW = Math.max(5, Math.min(labelNeed, width - numbers - 2 - 8));
  const barW = Math.max(0, width - labelW - numbers - 2);
  const top = Math.max(0, ...a.groups.map((g) => g.cost));
  const topTokens = Math.max(0, ...a.groups.map((g) => g.total));
  const cell = (s: string) => truncateToWidth(s, labelW, "…", true);
  const line = (label: string, tok: string, c: string) => `${cell(label)} ${tok.padStart(tokW)} ${c.padStart(costW)}`;
  const out: Line[] = [];
  a.groups.forEach((g, i) => {
    // Priced at nothing (every model unpriced), the bar stands for tokens rather than vanish.
    const fraction = top > 0 ? g.cost / top : topTokens > 0 ? g.total / topTokens : 0;
    const bar = costBar(fraction, barW);
    out.push({
      text: `${line(labels[i]!, tokens(g.total), cost(g))} ${style.cyan(bar)}`.trimEnd(),
      ...(a.by === "session" && g.session ? { session: g.session.session_id } : {}),
    });
  });
  if (a.more > 0) out.push({ text: style.dim(`… ${a.more} more`) });
  out.push({ text: style.bold(line("Total", tokens(t.total), cost(t))) });
  // The header goes above the scrolling rows, where the marks column of the list is not: shifted to line up.
  return { header: style.bold(` ${line(USAGE_HEADINGS[a.by], "Tokens", "Cost")}`), lines: out };
}

function notes(a: Shaped<UsageAnswer>): string[] {
  const t = a.totals;
  const out: string[] = [];
  if (t.calls > 0) {
    const split = `input ${full(t.input)} · output ${full(t.output)} · cache write ${full(t.cache_write)} · cache read ${full(t.cache_read)} · ${full(t.calls)} calls`;
    out.push(split);
  }
  if (t.recorded_cost !== null) out.push(`the agents' own count of their cost: ${usd(t.recorded_cost)}`);
  const notes = usageNotes(a);
  if (notes.unpriced) out.push(notes.unpriced);
  if (notes.unknown) out.push(notes.unknown);
  if (a.by === "session" && a.groups.length > 0) out.push("a session's row counts its subagents; Enter opens it");
  out.push(`days in ${a.time_zone}`);
  return out;
}
