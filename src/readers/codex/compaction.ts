/**
 * Codex compactions. One compaction is stated by up to two records a few lines apart: `compacted` (or a
 * `compaction` response item), which carries the summary, and `event_msg.context_compacted` (0.16x: a
 * ContextCompaction item), which carries none. They make one resume point.
 */
import { arr, type Obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import type { CodexState } from "./state.ts";

/**
 * Codex puts its own instructions before the summary it hands the next window ("Another language model started to
 * solve this problem … use the information in this summary to assist with your own analysis:"): harness text.
 */
const SUMMARY_PREAMBLE = /^Another language model started to solve this problem[^\n]*?:\s*\n/;

/** The summary record: it fills in a textless mark just before it, or is a compaction of its own. */
export function readCompacted(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const text = (str(p["message"]) ?? "").replace(SUMMARY_PREAMBLE, "");
  const meta: Record<string, unknown> = {};
  for (const k of ["window_number", "window_id", "previous_window_id"]) if (p[k] !== undefined) meta[k] = p[k];
  const replacement = arr(p["replacement_history"]);
  if (replacement) meta["replacement_items"] = replacement.length;
  if (s.lastCompact && line.line - s.lastCompact.line <= 3 && !s.lastCompact.hasText) {
    out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key: s.lastCompact.key,
      pointKind: "compaction",
      text,
      update: true,
      meta,
    });
    s.lastCompact.hasText = text !== "";
    return;
  }
  const key = `L${line.line}`;
  out.push({ kind: "resume_point", line: line.line, ts, key, pointKind: "compaction", text, meta });
  s.lastCompact = { line: line.line, key, hasText: text !== "" };
}

/** A compaction's second record (`context_compacted`, a ContextCompaction item) states the one before it. */
export function compactionMark(
  s: CodexState,
  line: SourceLine,
  ts: string | null,
  key: string,
  out: RawRecord[],
): void {
  if (s.lastCompact && line.line - s.lastCompact.line <= 12) return;
  out.push({ kind: "resume_point", line: line.line, ts, key, pointKind: "compaction", text: "" });
  s.lastCompact = { line: line.line, key, hasText: false };
}
