/**
 * "Did X work (in the end)": the answer is how the requests about X ended. The hits name the requests (a typed
 * request found by its words, or the request an event's evidence chain ends in); each request's outcome event
 * (topology/outcomes.ts) says what its verdict rests on: the check that passed or failed last, the agent's last
 * reply, the user's next message. Those events lead, the latest request's first.
 */
import type { HybridHit, HybridResult } from "../search/hybrid.ts";
import { intentOf } from "../search/intent.ts";
import { parseQuery } from "../search/query.ts";
import { STOPWORDS } from "../search/search.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { derivedEventId } from "../topology/ids.ts";
import type { SessionEvent } from "../topology/types.ts";
import { pinHits } from "./pin-hits.ts";

/** Hits read for the requests they name (and for the sessions whose ledger is read, open-failures.ts). */
export const ENDING_HITS = 10;
/** Requests whose outcome is read. */
const REQUESTS = 2;
/** Share of a page the outcomes' evidence leads with. */
const SHARE = 0.3;

/** Whether a query asks how things ended: whether X worked, or what was still failing. */
export function asksHowItEnded(query: string, now: Date): boolean {
  try {
    const name = intentOf(parseQuery(query, now), STOPWORDS)?.name;
    return name === "end-state" || name === "still-failing";
  } catch {
    return false; // a malformed query is refused by the search itself, with the part that is wrong
  }
}

/** The hits with what the requests about X ended on first, when the question asks whether X worked. */
export function withEndState(store: ReadonlyStore, result: HybridResult, now: Date, limit: number): HybridResult {
  const parsed = parseQuery(result.query, now);
  if (intentOf(parsed, STOPWORDS)?.name !== "end-state") return result;
  const requests = new Map<string, SessionEvent>();
  for (const hit of result.hits.slice(0, ENDING_HITS)) {
    const request = requestOf(store, hit);
    if (request && !requests.has(request.event_id)) requests.set(request.event_id, request);
    if (requests.size >= REQUESTS) break;
  }
  // the latest request first: "in the end" asks for the last word on X
  const ordered = [...requests.values()].sort((a, b) => (a.session_id === b.session_id ? b.ordinal - a.ordinal : 0));
  const picked: string[] = [];
  for (const request of ordered) {
    const outcome = store.getEventHead(derivedEventId(request.event_id, "outcome", 0), 0);
    if (!outcome) continue;
    const evidence = Array.isArray(outcome.meta["evidence"]) ? (outcome.meta["evidence"] as unknown[]) : [];
    const reply = outcome.meta["reply"];
    for (const id of [...evidence, reply]) if (typeof id === "string" && id !== request.event_id) picked.push(id);
  }
  return pinHits(store, result, parsed, {
    ids: picked,
    why: "what the request's outcome rests on",
    limit,
    share: SHARE,
  });
}

/**
 * The request a hit is or comes from: a typed user message, the request of an outcome, or the message its evidence
 * chain ends in when that is the user's. (Walking further up from any hit to its turn's request reached the
 * requests of every loosely matching check, and lost more than it won on the judged questions.)
 */
function requestOf(store: ReadonlyStore, hit: HybridHit): SessionEvent | null {
  const event = store.getEventHead(hit.event_id, 0);
  if (!event) return null;
  if (event.event_type === "user_message" && event.role === "user") return event;
  if (event.event_type === "outcome" && event.parent_event_id)
    return store.getEventHead(event.parent_event_id, 0) ?? null;
  const end = hit.evidence[hit.evidence.length - 1];
  if (end?.event_type === "user_message") return store.getEventHead(end.event_id, 0) ?? null;
  return null;
}
