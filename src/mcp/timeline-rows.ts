/** Timeline rows as the session and thread timeline tools return them: one shape, one line each. */
import type { z } from "zod";
import type { SessionTimelineRow, TimelineRow } from "../search/timeline.ts";
import { oneLine } from "./bounded-output.ts";
import { cite, shortTime } from "./format.ts";
import type { timelineRowSchema } from "./timeline-row-schema.ts";

export type RowData = z.infer<typeof timelineRowSchema>;

export function rowData(r: TimelineRow | SessionTimelineRow): RowData {
  return {
    event_id: r.event_id,
    ordinal: r.ordinal,
    timestamp: r.timestamp,
    event_type: r.event_type,
    mark: r.mark,
    summary: oneLine(r.summary, 160),
    depth: r.depth,
    sidechain: r.sidechain,
    branch_from: r.branch_from,
    status: r.status,
    ...("session_id" in r ? { session_id: r.session_id, provider: r.provider } : {}),
  };
}

/** `@12 [e:…] 2025-11-21 00:02 call  bash: npm test`, derived rows indented under their source. */
export function renderRow(r: RowData): string {
  const where = r.session_id ? `${r.provider} ${r.session_id} ` : "";
  const indent = r.depth > 0 ? "    ↳ " : "";
  const side = r.sidechain ? "[sidechain] " : "";
  const branch = r.branch_from ? ` (branches from ${cite(r.branch_from)})` : "";
  const status = r.status && r.mark !== "test_fail" && r.mark !== "test_pass" ? ` (${r.status})` : "";
  return `${indent}${where}@${r.ordinal} ${cite(r.event_id)} ${shortTime(r.timestamp)} ${side}${r.mark}: ${r.summary}${status}${branch}`;
}
