/**
 * The Conversation tab's state: the session's conversation as the app answers it (read in the search thread, as
 * the brief is: it reads the session whole), the cards opened, and the block to select once it is drawn (opening
 * at an event). Its lines are made for a width and kept until the width or what is open changes.
 */
import type { Shaped } from "../app/cairn.ts";
import type { Conversation } from "../app/conversation.ts";
import { type ConversationLine, conversationLines, type LinesMemo } from "./conversation-lines.ts";
import type { Cursor } from "./cursor.ts";
import { type Lines, linesOf, type Wrap } from "./lines.ts";
import type { Style } from "./style.ts";

export interface ConversationTab {
  sessionId: string;
  /** Null while it is being read. */
  answer: Shaped<Conversation> | null;
  error: string | null;
  /** The cards, long messages and subagents opened (`foldKey`). */
  readonly open: Set<string>;
  /** The block to select when next drawn, or null. */
  pending: string | null;
  drawn: { width: number; opened: string; lines: ConversationLine[] } | null;
  readonly memo: LinesMemo;
}

export function newConversationTab(sessionId: string): ConversationTab {
  return { sessionId, answer: null, error: null, open: new Set(), pending: null, drawn: null, memo: new WeakMap() };
}

/** The answer arrived: the block holding the event asked for is opened and, once drawn, selected. */
export function settleConversation(tab: ConversationTab, answer: Shaped<Conversation>): void {
  tab.answer = answer;
  tab.pending = answer.focus;
  if (answer.focus) tab.open.add(answer.focus);
  // A block among what a fork carried over shows only with that fold open.
  const inherited = answer.items.find((i) => i.kind === "inherited");
  if (inherited?.kind === "inherited" && inherited.items.some((i) => "event_id" in i && i.event_id === answer.focus))
    tab.open.add("inherited");
  tab.drawn = null;
}

/** The tab's lines at a width; a pending block is selected and put near the top of the pane. */
export function conversationTabLines(
  tab: ConversationTab,
  cursor: Cursor,
  width: number,
  style: Style,
  wrap: Wrap,
): Lines {
  if (tab.error) return linesOf(wrap(tab.error, width).map((w) => ({ text: style.red(w) })));
  if (!tab.answer) return linesOf([{ text: style.dim("reading the conversation…") }]);
  const opened = [...tab.open].join(" ");
  if (tab.drawn?.width !== width || tab.drawn.opened !== opened) {
    const before = tab.drawn;
    const lines = conversationLines(tab.answer.items, tab.open, width, style, wrap, undefined, tab.memo);
    tab.drawn = { width, opened, lines: lines.length ? lines : [{ text: style.dim("(nothing said)") }] };
    if (before) keepSelection(before.lines, tab.drawn.lines, cursor);
  }
  const lines = tab.drawn.lines;
  if (tab.pending !== null) {
    const at = lines.findIndex((l) => l.block === tab.pending);
    tab.pending = null;
    cursor.setCount(lines.length);
    cursor.moveTo(Math.max(0, at));
    cursor.top = Math.max(0, cursor.index - 2);
  }
  return linesOf(lines);
}

/**
 * Lines made again at another width (a zoom, a resize) or with a card opened: the selection stays on its block, as
 * far into it as it was, and as far from the pane's top.
 */
function keepSelection(before: ConversationLine[], after: ConversationLine[], cursor: Cursor): void {
  const block = before[cursor.index]?.block;
  if (block === undefined) return;
  const offset = cursor.index - before.findIndex((l) => l.block === block);
  const start = after.findIndex((l) => l.block === block);
  if (start < 0) return;
  let end = start;
  while (after[end + 1]?.block === block) end++;
  const fromTop = cursor.index - cursor.top;
  cursor.setCount(after.length);
  cursor.moveTo(Math.min(start + offset, end));
  cursor.top = Math.max(0, cursor.index - fromTop);
}

/**
 * Opens or folds what the line leads to (false when nothing folds there). A card opened is put at the top of the
 * pane, where what it holds can be read below it.
 */
export function toggleAt(tab: ConversationTab, line: ConversationLine, cursor: Cursor): boolean {
  const key = line.fold;
  if (key === undefined) return false;
  if (tab.open.has(key)) {
    tab.open.delete(key);
    // Folded from inside: the selection goes back to the card it was in.
    if (line.target === undefined && line.session === undefined) tab.pending = line.block ?? null;
  } else {
    tab.open.add(key);
    cursor.top = Math.max(0, cursor.index - 1);
  }
  return true;
}
