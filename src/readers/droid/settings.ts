/**
 * Droid records no call's tokens: `<session>.settings.json` beside a session keeps `tokenUsage`, the session's
 * running total (`inputTokens` without the cache reads, which Droid takes out of the provider's prompt count;
 * `outputTokens` with the thinking inside, `thinkingTokens`, `cacheReadTokens`, `cacheCreationTokens`). It is one
 * usage record named by the session, so the largest total counts and earlier reads do not add up, timed at the
 * session's latest line: a report by day puts the whole total on the session's last day.
 */
import { type Obj, obj, str } from "../json.ts";
import type { UsageRecord } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface SessionTotal {
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** The total a settings file holds, or null when it holds none (or is not JSON). */
export function sessionTotal(text: string): SessionTotal | null {
  let doc: Obj | undefined;
  try {
    doc = obj(JSON.parse(text));
  } catch {
    return null;
  }
  const u = obj(doc?.["tokenUsage"]);
  if (!u) return null;
  return {
    model: str(doc?.["model"]) ?? null,
    input: count(u["inputTokens"]),
    output: count(u["outputTokens"]),
    cacheRead: count(u["cacheReadTokens"]),
    cacheWrite: count(u["cacheCreationTokens"]),
    reasoning: count(u["thinkingTokens"]),
  };
}

/**
 * The session's total as a record of its first line: every read of the session writes it again over the last
 * (same line, same place), with the time of the latest line read.
 */
export function totalRecord(sessionId: string, total: SessionTotal | null, ts: string | null): UsageRecord | null {
  if (!total) return null;
  const { model, ...tokens } = total;
  return usageRecord({ line: 1, ts, key: "session-total" }, { ...tokens, model, call: `droid:${sessionId}` });
}
