/**
 * An export as a list of blocks both renderers share: a date line where the day changes, messages, each tool call
 * with its result (to be shown collapsed) and the errors, checks and decisions derived from them, and marks for
 * what stands alone (a resume point, an error of the agent itself).
 */
import { changeLine, shownPath } from "../../topology/change-line.ts";
import type { ToolInput } from "../../topology/tool-call-input.ts";
import { DERIVED_EVENT_TYPES, type SessionEvent } from "../../topology/types.ts";
import type { ExportDocument } from "./document.ts";

/** Most characters of one tool input or output an export holds; the rest is a `cairn show` away. */
export const MAX_TOOL_TEXT = 20_000;

export interface Mark {
  /** The event's type: a `resume_point` is where the session was compacted or resumed. */
  type: string;
  glyph: string;
  text: string;
  event_id: string;
}

export type Block =
  | { kind: "day"; date: string }
  | {
      kind: "message";
      who: "user" | "assistant" | "system";
      event_id: string;
      time: string | null;
      /** The session's short tag in a thread export, else null. */
      tag: string | null;
      text: string;
      status: string | null;
      marks: Mark[];
    }
  | {
      kind: "tool";
      name: string;
      /** One line: the command, the file, or the input's first line. */
      summary: string;
      event_id: string;
      time: string | null;
      tag: string | null;
      input: Clipped;
      /** What the call does in the agent-neutral vocabulary (a diff's before and after), when the reader knew. */
      typed: ToolInput | null;
      output: Clipped | null;
      exit_code: number | null;
      /** `error` when the call failed. */
      status: string | null;
      marks: Mark[];
    }
  | { kind: "mark"; mark: Mark; time: string | null; tag: string | null };

export interface Clipped {
  text: string;
  /** Characters left out. */
  cut: number;
}

const DERIVED: ReadonlySet<string> = new Set(DERIVED_EVENT_TYPES);
const FOLDED: ReadonlySet<string> = new Set(["file_action", "command"]);

/** `maxText`: the most characters of a tool's input or output a block holds. */
export function exportBlocks(
  doc: Pick<ExportDocument, "kind" | "sessions" | "events">,
  maxText = MAX_TOOL_TEXT,
): Block[] {
  const clip = (text: string) => clipTo(text, maxText);
  const tags = new Map(doc.sessions.map((s, i) => [s.session_id, doc.kind === "thread" ? `s${i + 1}` : null]));
  const byParent = new Map<string, SessionEvent[]>();
  for (const e of doc.events)
    if (e.parent_event_id) byParent.set(e.parent_event_id, [...(byParent.get(e.parent_event_id) ?? []), e]);
  const resultOf = (call: SessionEvent) =>
    (byParent.get(call.event_id) ?? []).find((e) => e.event_type === "tool_result") ?? null;
  const marksOf = (...events: Array<SessionEvent | null>) =>
    events.flatMap((e) =>
      e ? (byParent.get(e.event_id) ?? []).filter((d) => DERIVED.has(d.event_type) && !FOLDED.has(d.event_type)) : [],
    );
  const cwdOf = new Map(doc.sessions.map((s) => [s.session_id, s.cwd]));
  const shown = new Set<string>();
  const out: Block[] = [];
  let day: string | null = null;
  for (const e of doc.events) {
    if (shown.has(e.event_id) || FOLDED.has(e.event_type)) continue;
    const date = e.timestamp?.slice(0, 10) ?? null;
    if (date !== null && date !== day) {
      out.push({ kind: "day", date });
      day = date;
    }
    const tag = tags.get(e.session_id) ?? null;
    if (e.event_type === "tool_call") {
      const result = resultOf(e);
      const marks = marksOf(e, result);
      for (const x of [e, result, ...marks]) if (x) shown.add(x.event_id);
      out.push({
        kind: "tool",
        name: e.tool_name ?? "tool",
        summary: oneLine(toolSummary(e, cwdOf.get(e.session_id) ?? null), 120),
        event_id: e.event_id,
        time: e.timestamp,
        tag,
        input: clip(e.text),
        typed: typedInput(e),
        output: result ? clip(result.text) : null,
        exit_code: typeof result?.meta["exit_code"] === "number" ? result.meta["exit_code"] : null,
        status: result?.status ?? e.status,
        marks: marks.map(mark),
      });
    } else if (e.event_type === "user_message" || e.event_type === "assistant_message") {
      const marks = marksOf(e);
      for (const m of marks) shown.add(m.event_id);
      out.push({
        kind: "message",
        who: e.event_type === "assistant_message" ? "assistant" : e.role === "user" ? "user" : "system",
        event_id: e.event_id,
        time: e.timestamp,
        tag,
        text: e.text,
        status: e.status,
        marks: marks.map(mark),
      });
    } else if (e.event_type === "tool_result") {
      // Output without a call: what the harness put in the conversation (injected context, notices).
      out.push({
        kind: "tool",
        name: e.tool_name ?? (e.meta["harness"] ? "harness" : "output"),
        summary: oneLine(e.text, 120),
        event_id: e.event_id,
        time: e.timestamp,
        tag,
        input: { text: "", cut: 0 },
        typed: null,
        output: clip(e.text),
        exit_code: null,
        status: e.status,
        marks: marksOf(e).map(mark),
      });
    } else out.push({ kind: "mark", mark: mark(e), time: e.timestamp, tag });
    shown.add(e.event_id);
  }
  return out;
}

function mark(e: SessionEvent): Mark {
  const glyph =
    e.event_type === "error"
      ? "✗"
      : e.event_type === "test_result"
        ? e.status === "pass"
          ? "✓"
          : e.status === "fail"
            ? "✗"
            : "?"
        : e.event_type === "decision"
          ? "◆"
          : e.event_type === "resume_point"
            ? "⟲"
            : "·";
  const label = e.event_type === "test_result" ? "check" : e.event_type.replace("_", " ");
  return { type: e.event_type, glyph, text: `${label}: ${oneLine(e.text, 300)}`, event_id: e.event_id };
}

function clipTo(text: string, max: number): Clipped {
  return text.length <= max ? { text, cut: 0 } : { text: text.slice(0, max), cut: text.length - max };
}

/** The command, the change, or the file or search the call names (relative to the session's folder), or its input. */
function toolSummary(e: SessionEvent, cwd: string | null): string {
  if (e.command) return e.command;
  const input = typedInput(e);
  const change = changeLine(input ?? undefined, cwd);
  if (change) return change;
  const path = input?.path ?? e.file_path;
  if (input?.kind === "search" && input.pattern) return `${input.pattern}${path ? ` in ${shownPath(path, cwd)}` : ""}`;
  return path ? shownPath(path, cwd) : e.text;
}

function typedInput(e: SessionEvent): ToolInput | null {
  const input = e.meta["input"];
  return typeof input === "object" && input !== null && typeof (input as ToolInput).kind === "string"
    ? (input as ToolInput)
    : null;
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `2026-01-02T10:03:04.000Z` → `10:03` (UTC, as stored). */
export function clock(ts: string | null): string {
  return ts ? ts.slice(11, 16) : "";
}
