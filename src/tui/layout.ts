/**
 * Draws the browser into exactly the terminal's rows: a header (the search field or the title and filters), the
 * left pane (sessions or hits, with why the selected hit matched), the right pane (tabs of the open session, or the
 * selected hit's preview), and a footer (a question, the last action's result, or the keys); the help and the
 * zoomed right pane take the whole width. pi-tui does the drawing to the terminal.
 */
import { truncateToWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { plural } from "../common/plural.ts";
import { aiResumeLines, askLines } from "./ask-pane.ts";
import { viewLines } from "./brief-view.ts";
import type { Browser } from "./browser.ts";
import { footer, header, helpLines, tabBar } from "./chrome.ts";
import { conversationTabLines } from "./conversation-tab.ts";
import type { Cursor } from "./cursor.ts";
import {
  eventLines,
  type Lines,
  linesOf,
  NO_LINES,
  oneLine,
  providerCell,
  sessionLines,
  shortTime,
  timelineLine,
} from "./lines.ts";
import { markdownLines } from "./markdown-lines.ts";
import { previewLines } from "./preview.ts";
import { threadLines } from "./threads-tab.ts";
import { usageView } from "./usage-tab.ts";

const cell = (text: string, width: number): string => truncateToWidth(text, Math.max(0, width), "…", true);
const wrap = (text: string, width: number): string[] => (text === "" ? [""] : wrapTextWithAnsi(text, width));

/**
 * The left pane's width. Below 100 columns the focused pane gets the room, as lazygit's narrow layout does: the
 * sessions or results a little under half, the open session all but a margin of the list (20 columns: at 80, the
 * right pane's 59 hold the seven tabs' names).
 */
export function leftWidth(b: Pick<Browser, "focus" | "zoom">, width: number): number {
  if (b.zoom && (b.focus === "right" || b.focus === "ask")) return 0;
  if (width >= 100) return Math.min(60, Math.floor(width * 0.36));
  return b.focus === "right" ? Math.min(20, Math.floor(width * 0.3)) : Math.floor(width * 0.42);
}

export function renderScreen(b: Browser, width: number, height: number): string[] {
  const h = Math.max(3, height);
  const foot = footer(b, width, wrap);
  const body = Math.max(1, h - 1 - foot.length);
  const rows = [cell(header(b, width), width)];
  if (b.help) {
    const help = helpLines(b, width, wrap);
    for (let i = 0; i < body; i++) rows.push(cell(help[i] ?? "", width));
  } else {
    const lw = leftWidth(b, width);
    const rw = lw === 0 ? width : Math.max(1, width - lw - 1);
    const left = lw === 0 ? [] : leftPane(b, lw, body);
    const right = rightPane(b, rw, body);
    const sep = lw === 0 ? "" : b.style.dim("│");
    for (let i = 0; i < body; i++)
      rows.push(`${lw === 0 ? "" : cell(left[i] ?? "", lw)}${sep}${cell(right[i] ?? "", rw)}`);
  }
  for (const line of foot) rows.push(cell(line, width));
  return rows.slice(0, h);
}

/** A list drawn with its selection marked: ▸ (and reversed when coloured) where the focus is, · elsewhere. */
function listRows(
  count: number,
  item: (index: number) => readonly string[],
  per: number,
  cursor: Cursor,
  height: number,
  focused: boolean,
  b: Browser,
): string[] {
  const fitting = Math.max(1, Math.floor(height / per));
  cursor.setCount(count);
  const top = cursor.window(fitting);
  const out: string[] = [];
  for (let i = top; i < Math.min(count, top + fitting); i++) {
    const selected = i === cursor.index;
    item(i).forEach((line, k) => {
      const mark = k > 0 || !selected ? " " : focused ? "▸" : "·";
      out.push(selected && focused && k === 0 ? b.style.selected(`${mark}${line}`) : `${mark}${line}`);
    });
  }
  return out;
}

function leftPane(b: Browser, width: number, height: number): string[] {
  const focused = b.focus !== "right";
  if (!b.results) {
    const title = b.style.bold(`Sessions (${b.sessions.length})`);
    if (b.sessions.length === 0) return [title, b.style.dim(" no sessions match")];
    const item = (i: number) => sessionLines(b.sessions[i]!, b.style);
    return [title, ...listRows(b.sessions.length, item, 2, b.sessionCursor, height - 1, focused, b)];
  }
  const r = b.results;
  if (r.error) return [b.style.red("bad query"), ...wrap(r.error, width - 1)];
  const hits = r.answer?.hits ?? [];
  // Meaning was asked for and not used (the embedder knows none of the words): said, so no one waits for it.
  const unused = r.mode !== r.answer?.mode && r.answer?.notice ? ` (meaning: ${r.answer.notice})` : "";
  const title = b.style.bold(
    r.answer
      ? `Results (${hits.length}) · ${Math.round(r.ms)} ms · ${r.answer.mode}${by(r.answer.meaning_by)}${unused}`
      : "Results",
  );
  const hit = hits[b.hitCursor.index];
  const why = hit ? wrap(b.style.dim(`why: ${hit.why}`), width - 1).slice(0, 3) : [];
  const item = (i: number) => {
    const x = hits[i]!;
    return [
      `${b.style.agent(x.provider)(providerCell(x.provider))} ${shortTime(x.timestamp)} ${x.event_type}${x.status ? ` ${x.status}` : ""} ${b.style.bold(x.project ?? "")}`,
      `  ${oneLine(x.snippet)}`,
    ];
  };
  const list = hits.length
    ? listRows(hits.length, item, 2, b.hitCursor, height - 1 - why.length, focused, b)
    : [b.style.dim(" no hits")];
  const pad = Array(Math.max(0, height - 1 - why.length - list.length)).fill("");
  return [title, ...list, ...pad, ...why];
}

function rightPane(b: Browser, width: number, height: number): string[] {
  const preview = b.hitPreview();
  if (preview) {
    b.shown = NO_LINES;
    return previewLines(preview, width - 1, height, b.style, wrap);
  }
  const s = b.open;
  // Usage is of all history: drawn the same with or without a session open, its heading in place of the session's.
  if (b.tab === "usage") {
    const cursor = b.cursors.usage;
    if (!b.usage) {
      b.shown = NO_LINES;
      return [tabBar(b, width), b.style.dim("7 shows the tokens and cost every agent recorded.")];
    }
    const view = usageView(b.usage, cursor, width - 1, height - 1, b.style, wrap);
    b.shown = linesOf(view.lines);
    const room = Math.max(1, height - 1 - view.head.length);
    const rows = listRows(view.lines.length, (i) => [view.lines[i]!.text], 1, cursor, room, b.focus === "right", b);
    return [tabBar(b, width), ...view.head, ...rows];
  }
  if (!s && b.tab === "ask") {
    const lines = tabLines(b, width - 1);
    b.shown = lines;
    const rows = listRows(
      lines.count,
      (i) => [lines.line(i).text],
      1,
      b.cursors.ask,
      height - 1,
      b.focus === "right",
      b,
    );
    return [tabBar(b, width), ...rows];
  }
  if (!s) {
    b.shown = NO_LINES;
    return [
      b.style.bold("No session open"),
      "",
      " Enter opens the selected session's timeline.",
      " / searches everything; A asks a question; ? lists the keys.",
    ];
  }
  const tabs = tabBar(b, width);
  const info = b.style.dim(
    `${s!.provider} ${s!.project ?? ""} ${s!.session_short} · ${plural(s!.event_count, "event")} · ${oneLine(s!.title ?? "")}`,
  );
  const lines = tabLines(b, width - 1);
  b.shown = lines;
  const cursor = b.cursors[b.tab];
  const rows = listRows(lines.count, (i) => [lines.line(i).text], 1, cursor, height - 2, b.focus === "right", b);
  return [tabs, info, ...rows];
}

function tabLines(b: Browser, width: number): Lines {
  switch (b.tab) {
    case "timeline":
      return b.timeline.length
        ? { count: b.timeline.length, line: (i) => timelineLine(b.timeline[i]!, b.style) }
        : linesOf([{ text: "(no events)" }]);
    case "event":
      return linesOf(
        b.event ? eventLines(b.event, width, b.style, wrap) : [{ text: "Enter on a timeline row shows it here." }],
      );
    case "brief": {
      if (b.aiResume && b.aiResume.sessionId === b.open?.session_id)
        return linesOf(aiResumeLines(b.aiResume, width, b.style, wrap));
      const brief = b.brief;
      if (!brief || (brief.text === null && brief.error === null))
        return linesOf([{ text: "building the resume brief…" }]);
      if (brief.error) return linesOf([{ text: b.style.red(brief.error) }]);
      return linesOf(
        brief.view
          ? viewLines(brief.view, width, b.style, wrap)
          : markdownLines(brief.text!, width, b.style, wrap).lines,
      );
    }
    case "threads":
      return linesOf(b.threads ? threadLines(b.threads, width, b.style, wrap) : [{ text: "reading the threads…" }]);
    case "ask":
      return linesOf(askLines(b.asked, width, b.style, wrap));
    case "conversation":
      return b.conversation
        ? conversationTabLines(b.conversation, b.cursors.conversation, width, b.style, wrap)
        : linesOf([{ text: "6 shows the open session as a conversation." }]);
    case "usage":
      // Drawn apart (rightPane): its heading stays above the rows that scroll.
      return b.shown;
  }
}

/** What judged meaning, in a word: the model's name (`minilm-l6`), or `static`. */
function by(embedder: string | null | undefined): string {
  if (!embedder) return "";
  return ` (${embedder.match(/^model:([^@]+)@/)?.[1] ?? embedder.split(":")[0]})`;
}
