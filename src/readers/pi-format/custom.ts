/**
 * What extensions write: `custom` entries (their state: only notebook pages and sequence steps are part of the
 * work), `custom_message` entries and the `custom` / `hookMessage` message role (text shown in the conversation, or
 * a hand-over to a fresh session).
 */
import { contentText, type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import { sessionIdOfPath } from "./session.ts";
import type { EntryAt } from "./state.ts";

/** Custom entry types whose data is a notebook page (written by cairn or pi-agenticoding). */
const NOTEBOOK_TYPES = /notebook/i;
/** Custom messages that hand work over to a fresh session. */
const HANDOFF_TYPES = /handoff|resume-brief/i;
/** Sequence step boundaries written by cairn's pi extension. */
const SEQUENCE_STEP_TYPES = /sequence-step/i;

export function readCustom(o: Obj, at: EntryAt, out: RawRecord[]): void {
  const customType = str(o["customType"]) ?? "";
  const data = obj(o["data"]);
  if (NOTEBOOK_TYPES.test(customType) && data) return notebookPage(customType, data, at, out);
  if (SEQUENCE_STEP_TYPES.test(customType) && data) {
    out.push({
      kind: "resume_point",
      line: at.line.line,
      ts: at.ts,
      key: at.key,
      parentKey: at.parentKey,
      pointKind: "sequence_step",
      text: str(data["step"]) ?? str(data["raw"]) ?? "",
      meta: { custom_type: customType, ...data },
    });
  }
  // Other extension state is not part of the conversation; it stays in the transcript.
}

/**
 * A notebook page as a system message marked `notebook`, with the page's name and what the entry did to it
 * (`write`, `delete`, `clear`), so a brief can rebuild the notebook as it stood: the pages are the notebook, never
 * something the person typed.
 */
function notebookPage(customType: string, data: Obj, at: EntryAt, out: RawRecord[]): void {
  const title = str(data["title"]) ?? str(data["name"]) ?? str(data["page"]) ?? "";
  const body = str(data["content"]) ?? str(data["text"]) ?? str(data["body"]) ?? "";
  const op = str(data["op"]) ?? "write";
  if (!title && !body && op !== "clear") return;
  out.push({
    kind: "message",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    role: "system",
    text: op === "write" ? (title ? `${title}\n${body}` : body) : title,
    typed: false,
    meta: { custom_type: customType, notebook: true, notebook_op: op, ...(title ? { page: title } : {}) },
  });
}

export function readCustomMessage(o: Obj, at: EntryAt, out: RawRecord[]): void {
  const customType = str(o["customType"]) ?? "custom";
  const text = contentText(o["content"]);
  const base = { line: at.line.line, ts: at.ts, key: at.key, parentKey: at.parentKey };
  if (HANDOFF_TYPES.test(customType))
    out.push({ kind: "resume_point", ...base, pointKind: "handoff", text, meta: handoffMeta(customType, o) });
  else
    out.push({
      kind: "message",
      ...base,
      role: "system",
      text,
      typed: false,
      meta: { custom_type: customType, display: o["display"] ?? null },
    });
}

/** The `custom` (v3) or `hookMessage` (v2) message role: an extension's words in the conversation. */
export function readCustomRole(m: Obj, at: EntryAt, out: RawRecord[]): void {
  out.push({
    kind: "message",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    role: "system",
    text: contentText(m["content"]),
    typed: false,
    meta: { custom_type: m["customType"] ?? null },
  });
}

/**
 * Where a handed-over brief came from, when the extension says (cairn's `/handoff` writes the session file it left,
 * the direction and the events its brief cites): a later brief names that brief in a line instead of restating it.
 */
function handoffMeta(customType: string, o: Obj): Obj {
  const details = obj(o["details"]);
  const from = details ? str(details["from"]) : undefined;
  const fromId = from ? sessionIdOfPath(from) : null;
  const direction = details ? str(details["direction"]) : undefined;
  const cited = details && Array.isArray(details["citedEventIds"]) ? details["citedEventIds"].length : undefined;
  return {
    custom_type: customType,
    ...(fromId ? { from_session: fromId } : {}),
    ...(direction ? { direction } : {}),
    ...(cited !== undefined ? { cited_events: cited } : {}),
  };
}
