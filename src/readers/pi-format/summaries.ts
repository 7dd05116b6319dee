/**
 * Where work can be resumed from: compactions and branch summaries (as entries, and as the message roles pi writes
 * for them in the context), and labels the user put on an entry.
 */
import { type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import type { EntryAt, PiState } from "./state.ts";
import { treeParent } from "./tree.ts";

export function readCompaction(o: Obj, at: EntryAt, out: RawRecord[]): void {
  const details = obj(o["details"]);
  out.push({
    kind: "resume_point",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    pointKind: "compaction",
    text: str(o["summary"]) ?? "",
    meta: {
      tokens_before: o["tokensBefore"] ?? null,
      first_kept: o["firstKeptEntryId"] ?? o["firstKeptEntryIndex"] ?? null,
      ...(details ? { read_files: details["readFiles"] ?? [], modified_files: details["modifiedFiles"] ?? [] } : {}),
      ...(o["fromHook"] === true ? { from_hook: true } : {}),
    },
  });
}

export function readBranchSummary(o: Obj, at: EntryAt, out: RawRecord[]): void {
  out.push({
    kind: "resume_point",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    pointKind: "branch_summary",
    text: str(o["summary"]) ?? "",
    meta: { from_id: o["fromId"] ?? null },
  });
}

/** A label hangs off the entry it names (`targetId`), not off the entry written before it. */
export function readLabel(s: PiState, o: Obj, at: EntryAt, out: RawRecord[]): void {
  const label = str(o["label"]);
  if (label)
    out.push({
      kind: "resume_point",
      line: at.line.line,
      ts: at.ts,
      key: at.key,
      parentKey: treeParent(s, str(o["targetId"]) ?? null) ?? at.parentKey,
      pointKind: "label",
      text: label,
      meta: { target_id: o["targetId"] ?? null },
    });
}

/** The `branchSummary` and `compactionSummary` message roles: the same summaries, as the context carries them. */
export function readSummaryMessage(m: Obj, at: EntryAt, out: RawRecord[]): void {
  const base = { kind: "resume_point" as const, line: at.line.line, ts: at.ts, key: at.key, parentKey: at.parentKey };
  if (str(m["role"]) === "branchSummary")
    out.push({ ...base, pointKind: "branch_summary", text: str(m["summary"]) ?? "" });
  else
    out.push({
      ...base,
      pointKind: "compaction",
      text: str(m["summary"]) ?? "",
      meta: { tokens_before: m["tokensBefore"] ?? null },
    });
}
