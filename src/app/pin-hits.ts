/**
 * A search result with the events `ids` first (at most `share` of the page), each saying why it is there, then the
 * rest of the hits in their order: how an answer found through the app layer (the ledger's open failures, what a
 * request's outcome rests on) leads a question's hits.
 */
import type { HybridHit, HybridResult } from "../search/hybrid.ts";
import type { ParsedQuery } from "../search/query.ts";
import { hitBuilder } from "../search/search.ts";
import type { ReadonlyStore } from "../store/types.ts";

export interface Pin {
  ids: readonly string[];
  why: string;
  limit: number;
  share: number;
}

export function pinHits(store: ReadonlyStore, result: HybridResult, parsed: ParsedQuery, pin: Pin): HybridResult {
  const lead = [...new Set(pin.ids)].slice(0, Math.ceil(pin.limit * pin.share));
  if (lead.length === 0) return result;
  const toHit = hitBuilder(store, parsed);
  const pinned: HybridHit[] = [];
  for (const id of lead) {
    const event = store.getEventHead(id, 4000);
    if (event) pinned.push({ ...toHit(event, null), fused: 0, signals: [], why: pin.why });
  }
  const have = new Set(pinned.map((h) => h.event_id));
  return { ...result, hits: [...pinned, ...result.hits.filter((h) => !have.has(h.event_id))].slice(0, pin.limit) };
}
