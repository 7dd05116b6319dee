/**
 * The Conversation tab's lines: a session as its people and agents wrote it. Messages under a one-line header (the
 * person's text as typed, the agent's through `markdown-lines.ts`), each tool call as a one-line card that opens in
 * place (an edit as a diff, a patch coloured, the command, the output folded), marks under their block, a
 * compaction or resume point as a divider across the pane, a line where the local day changes, and each subagent
 * as a folded card that opens to its own conversation indented. Pure: widths, colours, the clock and what is open
 * are the caller's.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { ConversationItem } from "../app/conversation.ts";
import type { Mark } from "../app/export/blocks.ts";
import { plural } from "../common/plural.ts";
import { sizeLabel } from "../common/size-label.ts";
import { lineDiff } from "./line-diff.ts";
import type { Line, Wrap } from "./lines.ts";
import { markdownLines } from "./markdown-lines.ts";
import type { Style } from "./style.ts";

/**
 * A line of the tab: `fold` is the card Enter opens or folds from it, `block` the item it belongs to (an event id,
 * or `s-` and a subagent's session id), the first line of which is where opening at an event selects.
 */
export interface ConversationLine extends Line {
  fold?: string;
  block?: string;
}

/** Days and times as the person reading sees them (their local time). */
export interface Clock {
  day(iso: string): string;
  time(iso: string): string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

export const LOCAL_CLOCK: Clock = {
  day(iso) {
    const d = new Date(iso);
    return `${WEEKDAYS[d.getDay()]} ${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  },
  time(iso) {
    const d = new Date(iso);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  },
};

/** Lines of a tool's output (or a write's content) shown before the rest is folded away. */
export const OUTPUT_LINES = 12;
/** Lines of a diff or patch shown before the rest is folded away. */
const DIFF_LINES = 40;
/** A message longer than this shows its first `MESSAGE_LINES` until opened. */
const LONG_MESSAGE = 40;
const MESSAGE_LINES = 30;

type Tool = Extract<ConversationItem, { kind: "tool" }>;

/** What Enter opens and folds an item by. */
export function foldKey(item: ConversationItem): string {
  if (item.kind === "subagent") return `s-${item.session.session_id}`;
  if (item.kind === "inherited") return "inherited";
  return item.kind === "mark" ? item.mark.event_id : item.event_id;
}

/** Lines of messages and tool cards already made, by item: opening one card makes only that card's again. */
export type LinesMemo = WeakMap<object, { key: string; lines: ConversationLine[] }>;

interface Ctx {
  memo: LinesMemo | null;
  width: number;
  style: Style;
  wrap: Wrap;
  open: ReadonlySet<string>;
  clock: Clock;
  out: ConversationLine[];
  day: string | null;
}

export function conversationLines(
  items: readonly ConversationItem[],
  open: ReadonlySet<string>,
  width: number,
  style: Style,
  wrap: Wrap,
  clock: Clock = LOCAL_CLOCK,
  memo: LinesMemo | null = null,
): ConversationLine[] {
  const ctx: Ctx = { memo, width: Math.max(20, width), style, wrap, open, clock, out: [], day: null };
  itemLines(items, "", ctx);
  while (ctx.out[0]?.text === "") ctx.out.shift();
  return ctx.out;
}

function itemLines(items: readonly ConversationItem[], indent: string, ctx: Ctx): void {
  for (const item of items) {
    if (item.kind === "message" && item.text.trim() === "" && item.marks.length === 0) continue;
    dayLine(item.time, indent, ctx);
    if (item.kind === "message") remembered(item, indent, ctx, () => messageLines(item, indent, ctx));
    else if (item.kind === "tool") remembered(item, indent, ctx, () => toolLines(item, indent, ctx));
    else if (item.kind === "mark") markLines(item.mark, indent, ctx);
    else if (item.kind === "inherited") inheritedLines(item, indent, ctx);
    else subagentLines(item, indent, ctx);
  }
}

/** An item's lines from the memo when made at this width, indent and opening, else made and kept. */
function remembered(item: ConversationItem, indent: string, ctx: Ctx, make: () => void): void {
  const key = `${ctx.width}:${indent.length}:${ctx.open.has(foldKey(item))}`;
  const kept = ctx.memo?.get(item);
  if (kept?.key === key) {
    for (const l of kept.lines) ctx.out.push(l);
    return;
  }
  const from = ctx.out.length;
  make();
  ctx.memo?.set(item, { key, lines: ctx.out.slice(from) });
}

/** A line where the local day changes (and before the first item that has a time). */
function dayLine(time: string | null, indent: string, ctx: Ctx): void {
  if (time === null) return;
  const day = ctx.clock.day(time);
  if (day === ctx.day) return;
  ctx.day = day;
  ctx.out.push({ text: "" }, { text: ctx.style.dim(rule(`${indent}── ${day} `, ctx.width)) });
}

function rule(text: string, width: number): string {
  const cut = clipTo(text, width, "…");
  return cut + "─".repeat(Math.max(0, width - visibleWidth(cut)));
}

function messageLines(item: Extract<ConversationItem, { kind: "message" }>, indent: string, ctx: Ctx): void {
  const { style } = ctx;
  const who =
    item.who === "assistant" ? style.bold(style.cyan("agent")) : item.who === "user" ? style.bold("user") : "system";
  const time = item.time ? ` ${style.dim(ctx.clock.time(item.time))}` : "";
  const block = item.event_id;
  ctx.out.push({ text: "" }, { text: `${indent}${who}${time}`, target: item.event_id, block });
  const room = ctx.width - indent.length - 2;
  const body: string[] =
    item.who === "assistant"
      ? markdownLines(item.text, room, style, ctx.wrap).lines.map((l) => l.text)
      : item.text
          .trim()
          .split("\n")
          .flatMap((raw) => ctx.wrap(raw, room));
  const long = body.length > LONG_MESSAGE;
  const opened = ctx.open.has(block);
  const shown = long && !opened ? body.slice(0, MESSAGE_LINES) : body;
  for (const l of shown) ctx.out.push({ text: `${indent}  ${l}`, block });
  if (long)
    ctx.out.push({
      text: style.dim(
        `${indent}  ${opened ? "Enter folds it" : `… ${plural(body.length - MESSAGE_LINES, "more line")} · Enter shows them`}`,
      ),
      fold: block,
      block,
    });
  marksUnder(item.marks, indent, block, ctx);
}

/** One line: ▹ (▿ opened), the tool, what it did, then how it ended and its output's size, which are never cut. */
function toolLines(item: Tool, indent: string, ctx: Ctx): void {
  const { style } = ctx;
  const block = item.event_id;
  const opened = ctx.open.has(block);
  const failed = item.status === "error";
  const ended =
    item.exit_code !== null ? `exit ${item.exit_code}` : failed ? "failed" : item.output !== null ? "" : "no result";
  const size = item.output ? item.output.text.length + item.output.cut : 0;
  const facts = [ended, size > 0 ? sizeLabel(size) : ""].filter(Boolean).join(" · ");
  const tail = facts ? ` · ${failed ? style.red(`✗ ${facts}`) : style.dim(facts)}` : "";
  const head = `${indent}${opened ? "▿" : "▹"} ${style.bold(item.name)} `;
  const room = ctx.width - visibleWidth(head) - visibleWidth(tail);
  const summary = room > 4 ? clipTo(item.summary, room, "…") : "";
  ctx.out.push({ text: `${head}${summary}${tail}`, target: item.event_id, fold: block, block });
  if (opened) {
    const lead = `${indent}  ${style.dim("│")} `;
    // Enter anywhere in an open card folds it.
    const body = (text: string) => ctx.out.push({ text: `${lead}${text}`, fold: block, block });
    const room = ctx.width - indent.length - 4;
    for (const l of inputLines(item, room, ctx)) body(l);
    const output = item.output;
    if (output && output.text !== "") {
      const rows = output.text.split("\n").flatMap((raw) => ctx.wrap(raw, room));
      body(style.dim(`output · ${plural(output.text.split("\n").length, "line")}`));
      for (const l of folded(rows, OUTPUT_LINES, ctx.style)) body(l);
      if (output.cut > 0)
        body(style.dim(`… ${output.cut.toLocaleString("en")} more characters: cairn show ${item.event_id}`));
    }
  }
  marksUnder(item.marks, indent, block, ctx);
}

/** What the call was given, as what it does: the diff, the patch, the new file, the command, else its input. */
function inputLines(item: Tool, room: number, ctx: Ctx): string[] {
  const { style, wrap } = ctx;
  const t = item.typed;
  // Each line wrapped, its pieces painted as the line is (a removed line stays red where it wraps).
  const rows = (lines: string[], paint: (line: string) => (s: string) => string) =>
    lines.flatMap((l) => wrap(l, room).map((w) => paint(l)(w)));
  if (t?.kind === "edit" && t.edits?.length) {
    const out: string[] = t.path ? [style.dim(t.path)] : [];
    const diff = t.edits.flatMap((e) => lineDiff(e.old, e.new ?? ""));
    const paint = { "-": style.red, "+": style.green, " ": style.dim };
    const painted = diff.flatMap((d) =>
      wrap(d.text, room - 2).map((w, i) => paint[d.op](`${i === 0 ? d.op : " "} ${w}`)),
    );
    return [...out, ...folded(painted, DIFF_LINES, style)];
  }
  if (t?.kind === "patch" && t.patch) {
    const painted = rows(t.patch.split("\n"), (l) =>
      l.startsWith("+") ? style.green : l.startsWith("-") ? style.red : l.startsWith("@@") ? style.cyan : (x) => x,
    );
    return folded(painted, DIFF_LINES, style);
  }
  if (t?.kind === "write" && t.content !== undefined) {
    const head = t.path ? [style.dim(`${t.path} (new content)`)] : [];
    return [
      ...head,
      ...folded(
        rows(t.content.split("\n"), () => style.green),
        OUTPUT_LINES,
        style,
      ),
    ];
  }
  if (t?.kind === "shell" && t.command)
    return folded(
      rows(`$ ${t.command}`.split("\n"), () => style.bold),
      20,
      style,
    );
  if (item.input.text === "") return [];
  return folded(
    rows(item.input.text.split("\n"), () => style.dim),
    OUTPUT_LINES,
    style,
  );
}

function folded(rows: string[], max: number, style: Style): string[] {
  if (rows.length <= max) return rows;
  return [...rows.slice(0, max), style.dim(`… ${plural(rows.length - max, "more line")}`)];
}

function marksUnder(marks: readonly Mark[], indent: string, block: string, ctx: Ctx): void {
  for (const m of marks) markLines(m, `${indent}  `, ctx, block);
}

/** A mark of its own or under a block; a resume point (a compaction, a resume) is a divider across the pane. */
function markLines(mark: Mark, indent: string, ctx: Ctx, block = mark.event_id): void {
  const { style } = ctx;
  if (mark.type === "resume_point" && block === mark.event_id) {
    const text = rule(`${indent}── ${mark.glyph} ${mark.text} `, ctx.width);
    ctx.out.push({ text: "" }, { text: style.cyan(text), target: mark.event_id, block });
    return;
  }
  const paint = mark.glyph === "✗" ? style.red : mark.glyph === "✓" ? style.green : style.yellow;
  ctx.wrap(`${mark.glyph} ${mark.text}`, ctx.width - indent.length).forEach((w, i) => {
    ctx.out.push({
      text: `${indent}${i === 0 ? "" : "  "}${paint(w)}`,
      ...(i === 0 ? { target: mark.event_id } : {}),
      block,
    });
  });
}

function subagentLines(item: Extract<ConversationItem, { kind: "subagent" }>, indent: string, ctx: Ctx): void {
  const s = item.session;
  const block = foldKey(item);
  const opened = ctx.open.has(block);
  const tail = ctx.style.dim(` · ${plural(s.event_count, "event")}`);
  const head = `${indent}${opened ? "▿" : "▹"} ${ctx.style.bold(`${s.kind === "subagent" ? "subagent" : s.kind}:`)} `;
  const room = Math.max(4, ctx.width - visibleWidth(head) - visibleWidth(tail));
  const title = clipTo(s.title ?? `${s.provider} ${s.kind}`, room, "…");
  ctx.out.push({ text: "" }, { text: `${head}${title}${tail}`, fold: block, block, session: s.session_id });
  if (opened) itemLines(item.items, `${indent}  `, ctx);
}

/** A fork's copy of its parent's conversation: one folded line above where the fork began. */
function inheritedLines(item: Extract<ConversationItem, { kind: "inherited" }>, indent: string, ctx: Ctx): void {
  const block = foldKey(item);
  const opened = ctx.open.has(block);
  const head = `${indent}${opened ? "▿" : "▹"} ${ctx.style.bold("carried over from")} `;
  const tail = ctx.style.dim(` · ${plural(item.items.length, "item")}, up to the fork`);
  const room = Math.max(4, ctx.width - visibleWidth(head) - visibleWidth(tail));
  const title = clipTo(item.from?.title ?? "the session it was forked from", room, "…");
  ctx.out.push({ text: "" }, { text: `${head}${title}${tail}`, fold: block, block });
  if (opened) itemLines(item.items, `${indent}  `, ctx);
}

/** Plain text cut to `room` columns with `…` (pi-tui's cut adds escape codes a plain screen should not hold). */
function clipTo(text: string, room: number, ellipsis = "…"): string {
  // Printable ASCII is one column a character: cut at once (most summaries and titles).
  if (/^[\x20-\x7e]*$/.test(text))
    return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}${ellipsis}`;
  if (visibleWidth(text) <= room) return text;
  let out = "";
  for (const ch of text) {
    if (visibleWidth(out + ch + ellipsis) > room) break;
    out += ch;
  }
  return out + ellipsis;
}
