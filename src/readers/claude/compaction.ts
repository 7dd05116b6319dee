/**
 * Claude Code compactions: a `system` line with subtype `compact_boundary` (the trigger and token count), then a
 * later `user` line marked `isCompactSummary` carrying the summary. Both make one resume point.
 */
import { contentText, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import type { ClaudeState } from "./state.ts";
import { lineMeta } from "./subagent.ts";
import { lineKey, parentOf } from "./tree.ts";

export function readCompactBoundary(
  s: ClaudeState,
  o: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const uuid = lineKey(o, line);
  const cm = obj(o["compactMetadata"]) ?? {};
  // The boundary starts a new tree; `logicalParentUuid` says what it continues.
  const logical = str(o["logicalParentUuid"]);
  const meta = { trigger: cm["trigger"] ?? null, pre_tokens: cm["preTokens"] ?? null };
  out.push({
    kind: "resume_point",
    line: line.line,
    ts,
    key: uuid,
    parentKey: logical ? (s.alias[logical] ?? logical) : null,
    pointKind: "compaction",
    text: str(o["content"]) ?? "",
    meta,
  });
  s.compact = { key: uuid, meta };
}

/** The summary fills in the boundary before it; with no boundary waiting, it is a compaction of its own. */
export function readCompactSummary(
  s: ClaudeState,
  o: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const uuid = lineKey(o, line);
  const text = contentText(obj(o["message"])?.["content"]);
  const base = lineMeta(o);
  if (s.compact) {
    const { key, meta } = s.compact;
    out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key,
      pointKind: "compaction",
      text,
      update: true,
      meta: { ...meta, ...base, summary_line: line.line },
    });
    s.alias[uuid] = key;
    s.compact = null;
    return;
  }
  out.push({
    kind: "resume_point",
    line: line.line,
    ts,
    key: uuid,
    parentKey: parentOf(s, o),
    pointKind: "compaction",
    text,
    meta: base,
  });
}
