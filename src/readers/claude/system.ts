/**
 * `system` lines: compaction boundaries, API errors and refusals, stop hooks that failed or stopped the turn, and
 * notes the harness showed (informational, away summaries, local command output). The rest are only tree nodes.
 */
import { arr, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { readCompactBoundary } from "./compaction.ts";
import { sessionUpdate } from "./session.ts";
import type { ClaudeState } from "./state.ts";
import { lineKey, parentOf, quietAlias } from "./tree.ts";

const ERROR_SUBTYPES = new Set(["api_error", "error", "api_refusal", "model_refusal_fallback"]);
const NOTE_SUBTYPES = new Set(["informational", "away_summary", "local_command"]);

export function readSystem(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const subtype = str(o["subtype"]);
  if (subtype === "compact_boundary") return readCompactBoundary(s, o, line, ts, out);
  if (subtype !== undefined && ERROR_SUBTYPES.has(subtype)) return errorNotice(s, o, subtype, line, ts, out);
  if (subtype === "stop_hook_summary" && stopHookNotice(s, o, subtype, line, ts, out)) return;
  const content = str(o["content"]) ?? "";
  if (subtype !== undefined && NOTE_SUBTYPES.has(subtype) && content.trim() !== "") {
    out.push({
      kind: "message",
      line: line.line,
      ts,
      key: lineKey(o, line),
      parentKey: parentOf(s, o),
      role: "system",
      text: content,
      typed: false,
      meta: { subtype },
    });
    return;
  }
  quietAlias(s, o);
}

function errorNotice(
  s: ClaudeState,
  o: Obj,
  subtype: string,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const err = obj(o["error"]);
  const text =
    str(o["content"]) ||
    str(err?.["message"]) ||
    str(obj(err?.["error"])?.["message"]) ||
    JSON.stringify(o["error"] ?? subtype);
  out.push({
    kind: "notice",
    line: line.line,
    ts,
    key: lineKey(o, line),
    parentKey: parentOf(s, o),
    level: "error",
    text,
    meta: { subtype, status: err?.["status"] ?? null, retry_attempt: o["retryAttempt"] ?? null },
  });
}

/** A stop hook is an error only when one failed or it stopped the turn; false when it did neither. */
function stopHookNotice(
  s: ClaudeState,
  o: Obj,
  subtype: string,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): boolean {
  const errors = arr(o["hookErrors"]) ?? [];
  if (errors.length === 0 && o["preventedContinuation"] !== true) return false;
  const text =
    errors.map((e) => (typeof e === "string" ? e : JSON.stringify(e))).join("\n") ||
    str(o["stopReason"]) ||
    "stop hook prevented continuation";
  out.push({
    kind: "notice",
    line: line.line,
    ts,
    key: lineKey(o, line),
    parentKey: parentOf(s, o),
    level: "error",
    text,
    meta: { subtype },
  });
  return true;
}
