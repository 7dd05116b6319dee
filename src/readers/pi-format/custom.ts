/**
 * What extensions write: `custom` entries (their state: only notebook pages and sequence steps are part of the
 * work), `custom_message` entries and the `custom` / `hookMessage` message role (text shown in the conversation, or
 * a hand-over to a fresh session).
 */
import { contentText, type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import type { EntryAt } from "./state.ts";

/** Custom entry types whose data is a decision record (notebook pages written by cairn or pi-agenticoding). */
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

function notebookPage(customType: string, data: Obj, at: EntryAt, out: RawRecord[]): void {
  const title = str(data["title"]) ?? str(data["name"]) ?? str(data["page"]) ?? "";
  const body = str(data["content"]) ?? str(data["text"]) ?? str(data["body"]) ?? "";
  if (!title && !body) return;
  out.push({
    kind: "message",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    role: "system",
    text: title ? `${title}\n${body}` : body,
    typed: false,
    meta: { custom_type: customType, notebook: true },
  });
}

export function readCustomMessage(o: Obj, at: EntryAt, out: RawRecord[]): void {
  const customType = str(o["customType"]) ?? "custom";
  const text = contentText(o["content"]);
  const base = { line: at.line.line, ts: at.ts, key: at.key, parentKey: at.parentKey };
  if (HANDOFF_TYPES.test(customType))
    out.push({ kind: "resume_point", ...base, pointKind: "handoff", text, meta: { custom_type: customType } });
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
