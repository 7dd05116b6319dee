/**
 * OpenHands keeps no tokens in its events: the conversation's state file (`base_state.json`) holds, per LLM it used
 * (`stats.usage_to_metrics`: `agent`, `condenser`, `task:<id>` for a subagent it ran), `token_usages[]` with one
 * entry per model call, named by the call's `response_id`, and `costs[]` it priced itself. `prompt_tokens` is
 * LiteLLM's, which holds the cache reads and writes: they are taken out. A `task:` entry repeats the subagent's
 * calls, which its own state file holds too: those copies give way to the subagent's (sidechain).
 */
import { arr, isObj, type Obj, obj, str } from "../json.ts";
import type { CallTokens, UsageRecord } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export type OpenHandsCall = Omit<CallTokens, "cacheWrite1h">;

export function callsOf(state: Obj): OpenHandsCall[] {
  const out: OpenHandsCall[] = [];
  const metrics = obj(obj(state["stats"])?.["usage_to_metrics"]) ?? {};
  for (const [name, m] of Object.entries(metrics)) {
    if (!isObj(m)) continue;
    const costs = new Map<string, number>();
    for (const c of arr(m["costs"]) ?? []) {
      const id = str(obj(c)?.["response_id"]);
      const cost = obj(c)?.["cost"];
      if (id && typeof cost === "number" && Number.isFinite(cost)) costs.set(id, (costs.get(id) ?? 0) + cost);
    }
    for (const raw of arr(m["token_usages"]) ?? []) {
      const u = obj(raw);
      if (!u) continue;
      const prompt = count(u["prompt_tokens"]);
      const cacheRead = Math.min(count(u["cache_read_tokens"]), prompt);
      const cacheWrite = Math.min(count(u["cache_write_tokens"]), prompt - cacheRead);
      const id = str(u["response_id"]) || null;
      out.push({
        call: id,
        model: str(u["model"]) ?? null,
        input: prompt - cacheRead - cacheWrite,
        output: count(u["completion_tokens"]),
        cacheRead,
        cacheWrite,
        reasoning: count(u["reasoning_tokens"]),
        cost: id !== null ? (costs.get(id) ?? null) : null,
        sidechain: name.startsWith("task:"),
      });
    }
  }
  return out;
}

export function callRecords(calls: OpenHandsCall[], at: { line: number; ts: string | null }): UsageRecord[] {
  return calls
    .map((c, i) => usageRecord({ ...at, key: `usage#${i}` }, { ...c, cacheWrite1h: 0 }))
    .filter((r): r is UsageRecord => r !== null);
}
