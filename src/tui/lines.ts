/**
 * What each pane shows, as lines of text: sessions and search hits for the left pane, the timeline, an event with
 * its evidence chain and edges, and the brief for the right. Lines that lead somewhere carry the event id Enter
 * follows. Everything here is pure: widths are the caller's, colours come from the style.
 */
import type { EventWithChain } from "../app/event-chain.ts";
import { PROVIDER_WIDTH } from "../readers/agents.ts";
import { MARK_GLYPH, type TimelineMark, type TimelineRow } from "../search/timeline.ts";
import type { SessionRow } from "../store/types.ts";
import type { Style } from "./style.ts";

/** A line of a pane; `target` is the event Enter opens from it, `session` the session it opens. */
export interface Line {
  text: string;
  target?: string;
  session?: string;
}

/** A pane's lines, made only when drawn: a 10,000-event timeline formats the rows on screen, not all of them. */
export interface Lines {
  count: number;
  line(index: number): Line;
}

export function linesOf(lines: readonly Line[]): Lines {
  return { count: lines.length, line: (i) => lines[i]! };
}

export const NO_LINES: Lines = linesOf([]);

/** `11-24 10:02` (UTC, as stored), or blanks. */
/** A provider's name padded to the longest one's, so that rows of any agent line up. */
export function providerCell(provider: string): string {
  return provider.padEnd(PROVIDER_WIDTH);
}

export function shortTime(ts: string | null): string {
  return ts ? `${ts.slice(5, 10)} ${ts.slice(11, 16)}` : "           ";
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A session as two lines: agent, project and time; then its title and counts. */
export function sessionLines(s: SessionRow, style: Style): [string, string] {
  const counts = `${s.prompt_count}p ${s.tool_count}t${s.error_count ? ` ${style.red(`${s.error_count}✗`)}` : ""}`;
  const head = `${style.agent(s.provider)(providerCell(s.provider))} ${shortTime(s.updated_at)} ${style.bold(s.project ?? "-")}`;
  const title = oneLine(s.title ?? `${s.provider} session in ${s.project ?? "?"}`);
  return [head, `  ${counts} ${style.dim(title)}`];
}

export function markPaint(mark: TimelineMark, style: Style): (s: string) => string {
  switch (mark) {
    case "error":
    case "test_fail":
      return style.red;
    case "test_pass":
      return style.green;
    case "decision":
    case "outcome":
      return style.yellow;
    case "resume":
      return style.cyan;
    case "output":
    case "call":
      return style.dim;
    default:
      return (s) => s;
  }
}

/** One timeline row: time, position, indentation for derived rows and sidechains, the mark and the summary. */
export function timelineLine(r: TimelineRow, style: Style): Line {
  const indent = `${r.sidechain ? "│ " : ""}${"  ".repeat(r.depth)}`;
  const paint = markPaint(r.mark, style);
  const branch = r.branch_from ? style.dim("↳ ") : "";
  const text = `${style.dim(`${(r.timestamp ?? "").slice(11, 16).padEnd(5)} ${String(r.ordinal).padStart(5)}`)} ${indent}${branch}${paint(MARK_GLYPH[r.mark])} ${paint(oneLine(r.summary))}`;
  return { text, target: r.event_id };
}

/** The Event tab: the event, the chain it came from, and its edges; events among them can be followed. */
export function eventLines(a: EventWithChain, width: number, style: Style, wrap: Wrap): Line[] {
  const e = a.event;
  const out: Line[] = [];
  out.push({ text: style.bold(`${e.event_type} ${e.event_id}`) });
  const facts = [
    `@${e.ordinal}`,
    e.timestamp ?? "",
    e.status ? `status ${e.status}` : "",
    e.tool_name ? `tool ${e.tool_name}` : "",
  ].filter(Boolean);
  out.push({ text: style.dim(`${a.session.provider} ${a.session.project ?? ""} ${facts.join(" · ")}`) });
  if (e.command) out.push({ text: `$ ${oneLine(e.command)}` });
  if (e.file_path) out.push({ text: `file ${e.file_path}` });
  out.push({ text: "" });
  const body = e.text.split("\n").slice(0, 60);
  for (const l of body) for (const w of wrap(l, width)) out.push({ text: w });
  if (e.text.split("\n").length > 60) out.push({ text: style.dim("… (more in 'cairn show')") });
  if (a.chain.length > 0) {
    out.push({ text: "" }, { text: style.bold("Evidence chain (came from)") });
    for (const c of a.chain)
      out.push({ text: `  ↑ ${c.event_type} @${c.ordinal} ${style.dim(oneLine(c.text))}`, target: c.event_id });
  }
  for (const [title, edges] of [
    ["Edges out", a.edges.out],
    ["Edges in", a.edges.in],
  ] as const) {
    if (edges.length === 0) continue;
    out.push({ text: "" }, { text: style.bold(title) });
    for (const edge of edges) {
      const line = `  ${edge.edge_type} → ${edge.other_type ?? edge.other_kind} ${style.dim(oneLine(edge.display))}`;
      out.push(edge.other_kind === "event" ? { text: line, target: edge.other } : { text: line });
    }
  }
  return out;
}

export type Wrap = (text: string, width: number) => string[];

const CITATIONS = /\[e:([0-9a-zA-Z_:.-]+)\]/g;

/**
 * Lines of text with citations `[e:ID]` wrapped to a width, each leading to an event: a line that holds a citation
 * (or part of one, when a narrow pane splits it) to that event, any other line of the same paragraph to the next
 * citation after it, the one that backs what the line says.
 */
export function briefLines(text: string, width: number, wrap: Wrap): Line[] {
  const out: Line[] = [];
  for (const raw of text.split("\n")) {
    const cites = [...raw.matchAll(CITATIONS)].map((m) => ({ id: m[1]!, start: m.index, end: m.index + m[0].length }));
    let at = 0;
    for (const w of wrap(raw, width)) {
      const piece = stripAnsi(w).trim();
      const found = piece === "" ? -1 : raw.indexOf(piece, at);
      const start = found < 0 ? at : found;
      const end = found < 0 ? at : found + piece.length;
      if (found >= 0) at = end;
      const cite = cites.find((c) => c.start < end && c.end > start) ?? cites.find((c) => c.start >= end);
      out.push(cite ? { text: w, target: cite.id } : { text: w });
    }
  }
  return out;
}

export function stripAnsi(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what is removed
  return s.replace(/\x1b\[[0-9;]*m/g, "");
}

export const HELP: ReadonlyArray<[string, string]> = [
  ["↑ ↓  j k", "move"],
  ["PgUp PgDn Space", "page"],
  ["g G  Home End", "first, last"],
  ["mouse wheel", "move in the list"],
  ["Tab", "switch between the left and right pane"],
  ["Enter", "open: a session, a hit, a row's event, a citation, a card"],
  ["/", "search as you type (the full query language)"],
  ["a  p  s", "left pane: cycle the agent, project and since filters"],
  ["1 2 3 4 5 6 7", "Timeline, Event, Brief, Threads, Ask, Conversation, Usage"],
  ["c", "conversation at the hit, row or citation; back to timeline"],
  ["z", "zoom: the right pane over the whole width, again to undo"],
  ["n N", "next / previous line that leads somewhere"],
  ["A", "ask a question (of the open session when focused)"],
  ["R", "AI Resume: a model's brief, checked, on the Brief tab"],
  ["y", "copy the citation, the brief or the session id"],
  ["e", "export the session as Markdown into this folder"],
  ["r", "resume: shows the command; Enter runs it"],
  ["w", "the web page's path for this view (for 'cairn serve')"],
  ["q  Esc", "back; quit from the session list"],
  ["Ctrl-C", "quit"],
  ["?", "this help (other keys act as usual)"],
];
