/** What readers share to report a model call's tokens (`UsageRecord`): counts read leniently, records made alike. */
import { num } from "./json.ts";
import type { CallTokens, UsageRecord } from "./types.ts";

/** No model call moves this many tokens: a larger count is a broken record, not usage. */
const MOST = 1e12;

/**
 * A token count as the agent wrote it: a finite number, else 0 (as are negative counts and counts past any model's,
 * which no agent means: summed, one would swamp every real figure).
 */
export function count(v: unknown): number {
  const n = num(v);
  return n === undefined || n < 0 || n > MOST ? 0 : Math.round(n);
}

/** Every token the call moved: what copies of one call are compared by (the largest copy is the complete one). */
export function callTotal(
  t: Pick<CallTokens, "input" | "output" | "cacheRead" | "cacheWrite" | "cacheWrite1h">,
): number {
  return t.input + t.output + t.cacheRead + t.cacheWrite + t.cacheWrite1h;
}

/** A usage record, or null for a call that moved no token at all (a synthetic or aborted message). */
export function usageRecord(
  at: { line: number; ts: string | null; key: string },
  fields: Partial<CallTokens> & Pick<CallTokens, "model">,
): UsageRecord | null {
  const tokens: CallTokens = {
    call: null,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: 0,
    cost: null,
    ...fields,
  };
  if (callTotal(tokens) === 0 && tokens.reasoning === 0) return null;
  return { kind: "usage", line: at.line, ts: at.ts, key: at.key, tokens };
}
