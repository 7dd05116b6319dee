/** A reader's usage record as the row the index keeps: not an event, only where it was read and its counts. */
import type { UsageRecord } from "../readers/types.ts";
import type { UsageRow } from "./types.ts";

/** The row of `r`, numbered after `last` when both are of one line (a line may record several calls). */
export function usageRow(
  r: UsageRecord,
  at: Pick<UsageRow, "session_id" | "provider" | "source_file">,
  last: UsageRow | undefined,
): UsageRow {
  const t = r.tokens;
  return {
    ...at,
    source_line: r.line,
    seq: last?.source_line === r.line ? last.seq + 1 : 0,
    timestamp: r.ts,
    model: t.model,
    call: t.call,
    input: t.input,
    output: t.output,
    cache_read: t.cacheRead,
    cache_write: t.cacheWrite,
    cache_write_1h: t.cacheWrite1h,
    reasoning: t.reasoning,
    cost: t.cost,
    sidechain: t.sidechain === true,
    fast: t.fast === true,
  };
}
