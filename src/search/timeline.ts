/**
 * A session's timeline as rows to print: primary events in order, tool output collapsed to its first line and a
 * line count, derived errors, tests and decisions marked under the event they came from, resume points marked,
 * branches (an event whose tree parent is not the event before it) and sidechains shown.
 */
import type { ReadonlyStore } from "../store/types.ts";
import { changeLine } from "../topology/change-line.ts";
import { clip, headline } from "../topology/text.ts";
import type { ToolInput } from "../topology/tool-call-input.ts";
import type { EventType, Provider, SessionEvent } from "../topology/types.ts";

export const TIMELINE_MARKS = [
  "prompt",
  "reply",
  "call",
  "output",
  "error",
  "test_pass",
  "test_fail",
  "test_unknown",
  "decision",
  "resume",
  "note",
  "file",
  "command",
  "outcome",
] as const;
export type TimelineMark = (typeof TIMELINE_MARKS)[number];

/** One character per mark, as the text surfaces (the CLI's timeline, the terminal UI) draw them. */
export const MARK_GLYPH: Record<TimelineMark, string> = {
  prompt: "›",
  reply: "‹",
  call: "→",
  output: "←",
  error: "✗",
  test_pass: "✓",
  test_unknown: "?",
  test_fail: "✗",
  decision: "◆",
  resume: "⟲",
  note: "·",
  file: "□",
  command: "$",
  outcome: "⇒",
};

export interface TimelineRow {
  event_id: string;
  ordinal: number;
  timestamp: string | null;
  event_type: EventType;
  mark: TimelineMark;
  /** One line: the text, or the first line of tool output plus its size. */
  summary: string;
  /** Derived rows sit under their source. */
  depth: number;
  sidechain: boolean;
  /** Set when the event does not continue from the row before it: the event it branches from. */
  branch_from: string | null;
  status: string | null;
}

export interface TimelineOptions {
  /** Include file actions, commands and replies that only called tools (otherwise folded into their calls). */
  all?: boolean;
  from?: number;
  to?: number;
  /** The session's folder: the files a call changes are named relative to it. */
  cwd?: string | null;
}

const FOLDED = new Set<EventType>(["file_action", "command"]);
const DERIVED = new Set<EventType>(["file_action", "command", "test_result", "decision"]);

export function buildTimeline(store: ReadonlyStore, sessionId: string, opts: TimelineOptions = {}): TimelineRow[] {
  const events = store.sessionEvents(sessionId, { from: opts.from, to: opts.to });
  return timelineRows(events, opts);
}

export function timelineRows(events: readonly SessionEvent[], opts: TimelineOptions = {}): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const byId = new Map(events.map((e) => [e.event_id, e]));
  let lastPrimary: SessionEvent | null = null;
  for (const e of events) {
    const derived =
      DERIVED.has(e.event_type) ||
      (e.event_type === "error" && byId.get(e.parent_event_id ?? "")?.event_type === "tool_result");
    if (FOLDED.has(e.event_type) && !opts.all) continue;
    let branch: string | null = null;
    // An outcome is placed where it became known, after the next request: its parent is the request it judges,
    // not a branch point.
    if (!derived && e.event_type !== "outcome") {
      // A tree parent other than the previous primary event (or the call a result answers) is a branch point.
      const parent = e.parent_event_id;
      if (
        parent &&
        lastPrimary &&
        parent !== lastPrimary.event_id &&
        byId.has(parent) &&
        e.event_type !== "tool_result" &&
        e.event_type !== "tool_call"
      ) {
        branch = parent;
      }
      lastPrimary = e;
    }
    // A reply that only called tools says nothing of its own: its calls are the next rows.
    if (e.event_type === "assistant_message" && e.text.trim() === "" && branch === null && !opts.all) continue;
    rows.push({
      event_id: e.event_id,
      ordinal: e.ordinal,
      timestamp: e.timestamp,
      event_type: e.event_type,
      mark: markOf(e),
      summary: summarize(e, opts.cwd),
      depth: derived ? 1 : 0,
      sidechain: e.meta["sidechain"] === true,
      branch_from: branch,
      status: e.status,
    });
  }
  return rows;
}

function markOf(e: SessionEvent): TimelineMark {
  switch (e.event_type) {
    case "user_message":
      return e.role === "user" ? "prompt" : "note";
    case "assistant_message":
      return "reply";
    case "tool_call":
      return "call";
    case "tool_result":
      return e.status === "error" ? "error" : "output";
    case "error":
      return "error";
    case "test_result":
      // a check whose outcome its output does not show (piped through a filter) is neither
      return e.status === "fail" ? "test_fail" : e.status === "pass" ? "test_pass" : "test_unknown";
    case "decision":
      return "decision";
    case "resume_point":
      return "resume";
    case "file_action":
      return "file";
    case "command":
      return "command";
    case "outcome":
      return "outcome";
  }
}

function summarize(e: SessionEvent, cwd: string | null | undefined): string {
  const text = e.text.trim();
  const nl = text.indexOf("\n");
  const first = (nl === -1 ? text : text.slice(0, nl)).trim();
  const clipped = first.length > 140 ? `${first.slice(0, 139)}…` : first;
  if (e.event_type === "tool_result") {
    const lines = text === "" ? 0 : text.split("\n").length;
    return lines > 1 ? `${clipped} (${lines} lines)` : clipped || "(no output)";
  }
  if (e.event_type === "tool_call") {
    const change = changeLine(e.meta["input"] as ToolInput | undefined, cwd);
    return `${e.tool_name ?? "tool"}: ${change === null ? clipped : clip(change, 140)}`;
  }
  if (e.event_type === "resume_point")
    return `${String(e.meta["kind"] ?? "resume point")}: ${clip(headline(text), 140) || clipped}`;
  if (e.event_type === "assistant_message" && clipped === "") return "(tool calls)";
  return nl === -1 ? clipped : `${clipped} …`;
}

/** A row of a timeline that merges several sessions, saying which one it came from. */
export interface SessionTimelineRow extends TimelineRow {
  session_id: string;
  provider: Provider;
}

export interface TimelinePart {
  session_id: string;
  provider: Provider;
  started_at: string | null;
  /** The session's own timeline rows, in its order. */
  rows: readonly TimelineRow[];
}

/**
 * Several sessions' timelines as one, by time. Each session keeps its own order (a row is never moved before a row
 * it followed, so derived rows stay under their source and clock skew inside a transcript cannot scramble it);
 * between sessions the earlier timestamp goes first, ties to the part listed first. A row without a timestamp
 * takes the time of the row before it in its session.
 */
export function mergeTimelines(parts: readonly TimelinePart[]): SessionTimelineRow[] {
  const lanes = parts.map((p) => {
    let last = timeOf(p.started_at) ?? Number.NEGATIVE_INFINITY;
    const times = p.rows.map((r) => {
      last = timeOf(r.timestamp) ?? last;
      return last;
    });
    return { part: p, times, next: 0 };
  });
  const out: SessionTimelineRow[] = [];
  for (;;) {
    let best: (typeof lanes)[number] | null = null;
    for (const lane of lanes) {
      if (lane.next >= lane.part.rows.length) continue;
      if (best === null || lane.times[lane.next]! < best.times[best.next]!) best = lane;
    }
    if (best === null) return out;
    const row = best.part.rows[best.next++]!;
    out.push({ ...row, session_id: best.part.session_id, provider: best.part.provider });
  }
}

function timeOf(ts: string | null): number | null {
  if (!ts) return null;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : t;
}
