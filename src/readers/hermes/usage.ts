/**
 * Hermes' token counts: no call's own, only running totals. `session_model_usage` keeps one row per session and
 * route (model, billing provider, base URL, mode) and task (empty for the agent's loop; `compression`, `vision`,
 * `title_generation` for its auxiliary calls), each field added to after every call (`hermes_state.py`). Its
 * `input_tokens` is the input neither read from nor written to the cache (`agent/usage_pricing.py`, whose
 * `prompt_tokens` adds the cache back), `output_tokens` the completion with its reasoning inside. A row is one usage
 * record named by its key, so the latest (largest) total of a row counts and its earlier reads do not add up; its
 * time is the row's `last_seen`, so a report by day puts the whole total on the day it last grew.
 */
import type { Obj } from "../json.ts";
import { str } from "../json.ts";
import type { LineSink } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

/** After the session's messages (ids are far below), in the columns of the reader's query. */
export const USAGE_ROWS = `SELECT 'usage', u.session_id, NULL, u.last_seen, NULL, NULL, NULL, u.model, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL,
  json_object('provider', u.billing_provider, 'base_url', u.billing_base_url, 'mode', u.billing_mode, 'task', u.task,
    'input', u.input_tokens, 'output', u.output_tokens, 'cache_read', u.cache_read_tokens,
    'cache_write', u.cache_write_tokens, 'reasoning', u.reasoning_tokens, 'estimated', u.estimated_cost_usd,
    'actual', u.actual_cost_usd),
  NULL, NULL, NULL, NULL, NULL, NULL,
  s.started_at, s.id, 9000000000000000000
FROM session_model_usage u JOIN sessions s ON s.id = u.session_id`;

export function usageRow(row: Obj, line: SourceLine, sink: LineSink): void {
  let u: Obj;
  try {
    u = JSON.parse(str(row["content"]) ?? "{}") as Obj;
  } catch {
    return;
  }
  const at = row["at"];
  const model = str(row["model"]) ?? null;
  const key = ["provider", "base_url", "mode", "task"].map((k) => str(u[k]) ?? "").join("|");
  const rec = usageRecord(
    {
      line: line.line,
      ts: typeof at === "number" && at > 0 ? new Date(at * 1000).toISOString() : null,
      key: `u${line.line}`,
    },
    {
      call: `hermes:${str(row["session_id"]) ?? ""}|${model ?? ""}|${key}`,
      model,
      input: count(u["input"]),
      output: count(u["output"]),
      cacheRead: count(u["cache_read"]),
      cacheWrite: count(u["cache_write"]),
      reasoning: count(u["reasoning"]),
      cost: costOf(u),
    },
  );
  if (rec) sink.out.push(rec);
}

/** The provider's billed cost when Hermes has one, else its own estimate; 0 is a route it could not price. */
function costOf(u: Obj): number | null {
  for (const k of ["actual", "estimated"]) {
    const v = u[k];
    if (typeof v === "number" && Number.isFinite(v) && v > 0) return v;
  }
  return null;
}
