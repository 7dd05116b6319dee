/**
 * The rows a usage report reads: each agent's counted calls rolled up (usage/rollup.ts), kept in the index's
 * settings with the generation of that agent's calls they were made from. The index counts a generation per agent
 * (any call row added, changed or removed moves it); while it stays the same a report reads the kept rows, a few
 * hundred, instead of tens of thousands of calls, their dedup and their prices. A store that counts no generations
 * (the team index) is read whole every time; an app that may not write reads the calls when nothing is kept.
 */
import type { Provider, UsageCall } from "../../topology/types.ts";
import { countedCalls } from "../../usage/calls.ts";
import { bucketOfValues, bucketValues, rollUp, type UsageBucket } from "../../usage/rollup.ts";
import type { QuestionContext } from "./question.ts";

/** The settings key of an agent's kept rows; its number changes with the rows' form. */
const KEPT = "usage_rollup:1:";

interface Kept {
  generation: number;
  rows: unknown[][];
}

/** The rolled-up calls of these agents (all without a list), each agent's in the order its calls were read. */
export function usageBuckets(ctx: QuestionContext, providers?: readonly Provider[]): UsageBucket[] {
  const store = ctx.store();
  const generations = store.usageGenerations();
  if (generations === null) {
    const calls = store.usageCalls(providers?.length ? { providers } : {});
    return [...new Set(calls.map((c) => c.provider))].flatMap((p) => agentRows(calls, p));
  }
  const wanted = [...generations.keys()].filter((p) => !providers?.length || providers.includes(p)).sort();
  const rows = new Map<Provider, UsageBucket[]>();
  const stale: Provider[] = [];
  for (const p of wanted) {
    const kept = keptRows(store.getSetting(KEPT + p));
    if (kept !== null && kept.generation === generations.get(p)) rows.set(p, kept.rows.map(bucketOfValues));
    else stale.push(p);
  }
  if (stale.length > 0) {
    const calls = store.usageCalls({ providers: stale });
    for (const p of stale) {
      const made = agentRows(calls, p);
      rows.set(p, made);
      const kept: Kept = { generation: generations.get(p)!, rows: made.map(bucketValues) };
      ctx.keep?.(KEPT + p, JSON.stringify(kept));
    }
  }
  return wanted.flatMap((p) => rows.get(p)!);
}

/** One agent's calls rolled up: a call's copies are always one agent's, so each is deduplicated alone. */
function agentRows(calls: readonly UsageCall[], provider: Provider): UsageBucket[] {
  return rollUp(countedCalls(calls.filter((c) => c.provider === provider)));
}

function keptRows(json: string | null): Kept | null {
  if (json === null) return null;
  try {
    const kept = JSON.parse(json) as Kept;
    return typeof kept.generation === "number" && Array.isArray(kept.rows) ? kept : null;
  } catch {
    return null;
  }
}
