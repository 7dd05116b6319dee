/**
 * Draws the browser into exactly the terminal's rows: a header (the search field or the title and filters), the
 * left pane (sessions or hits, with why the selected hit matched), the right pane (tabs of the open session, or
 * help), and a footer (a question, the last action's result, or the keys). pi-tui does the drawing to the terminal.
 */
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { plural } from "../common/plural.ts";
import { aiResumeLines, askLines } from "./ask-pane.ts";
import { type Browser, TABS } from "./browser.ts";
import type { Cursor } from "./cursor.ts";
import {
  briefLines,
  eventLines,
  HELP,
  type Lines,
  linesOf,
  NO_LINES,
  oneLine,
  providerCell,
  sessionLines,
  shortTime,
  timelineLine,
} from "./lines.ts";
import { threadLines } from "./threads-tab.ts";

const cell = (text: string, width: number): string => truncateToWidth(text, Math.max(0, width), "…", true);
const wrap = (text: string, width: number): string[] => (text === "" ? [""] : wrapTextWithAnsi(text, width));

export function leftWidth(width: number): number {
  return width < 100 ? Math.min(32, Math.floor(width * 0.4)) : Math.min(60, Math.floor(width * 0.36));
}

export function renderScreen(b: Browser, width: number, height: number): string[] {
  const h = Math.max(3, height);
  const lw = leftWidth(width);
  const rw = Math.max(1, width - lw - 1);
  const body = h - 2;
  const left = leftPane(b, lw, body);
  const right = rightPane(b, rw, body);
  const sep = b.style.dim("│");
  const rows = [cell(header(b, width), width)];
  for (let i = 0; i < body; i++) rows.push(`${cell(left[i] ?? "", lw)}${sep}${cell(right[i] ?? "", rw)}`);
  rows.push(cell(footer(b), width));
  return rows;
}

function header(b: Browser, width: number): string {
  const f = b.filters;
  const filters = [f.agent && `agent:${f.agent}`, f.project && `project:${f.project}`, f.since && `since:${f.since}`]
    .filter(Boolean)
    .join(" ");
  const shownFilters = filters ? b.style.cyan(` [${filters}]`) : "";
  if (b.focus === "ask") {
    const scope = b.style.dim(
      b.askScope
        ? ` (session ${b.open?.session_id === b.askScope ? b.open.session_short : b.askScope})`
        : " (all history)",
    );
    const room = Math.max(10, width - visibleWidth(scope));
    return `${cell(b.askInput.render(room)[0] ?? "", room)}${scope}`;
  }
  if (b.focus === "search" || b.results || b.searching) {
    const busy = b.searching ? b.style.dim(" searching…") : "";
    const room = Math.max(10, width - visibleWidth(shownFilters) - visibleWidth(busy));
    return `${cell(b.input.render(room)[0] ?? "", room)}${busy}${shownFilters}`;
  }
  return `${b.style.bold("cairn")} ${b.style.dim(`${plural(b.sessions.length, "session")} · ${b.app.dbPath}`)}${shownFilters}`;
}

function footer(b: Browser): string {
  if (b.confirm) return b.style.yellow(`Run: ${b.confirm.prompt}  — Enter runs it, any other key cancels`);
  if (b.status) return b.status;
  const keys =
    b.focus === "search"
      ? "type to search · ↑↓ pick · Enter to the results · Esc back"
      : b.focus === "ask"
        ? "type a question · Enter asks the model · Esc cancels"
        : "? keys · ↑↓/jk move · Enter open · Tab pane · / search · A ask · R AI resume · 1-5 tabs · y copy · e export · r resume · q back";
  return b.style.dim(keys);
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
  if (b.help) return [b.style.bold("Keys"), ...HELP.map(([k, what]) => ` ${k.padEnd(16)} ${what}`)];
  const s = b.open;
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
    return [b.style.bold("[5 Ask]"), ...rows];
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
  const tabs = TABS.map((t, i) => {
    const label = `${i + 1} ${t[0]!.toUpperCase()}${t.slice(1)}`;
    return t === b.tab ? b.style.bold(`[${label}]`) : b.style.dim(` ${label} `);
  }).join(" ");
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
      return linesOf(briefLines(brief.text!, width, wrap));
    }
    case "threads":
      return linesOf(b.threads ? threadLines(b.threads, width, b.style, wrap) : [{ text: "reading the threads…" }]);
    case "ask":
      return linesOf(askLines(b.asked, width, b.style, wrap));
  }
}

/** What judged meaning, in a word: the model's name (`minilm-l6`), or `static`. */
function by(embedder: string | null | undefined): string {
  if (!embedder) return "";
  return ` (${embedder.match(/^model:([^@]+)@/)?.[1] ?? embedder.split(":")[0]})`;
}
