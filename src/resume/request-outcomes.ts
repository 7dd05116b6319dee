/**
 * Open requests: what the user asked that did not end done (failed, abandoned) and the request still being worked
 * on, each with its last outcome, from the topology's `outcome` events (the latest request has none yet: its last
 * check, and whether the agent answered it and stopped, say how it stands).
 */
import { typedPart } from "../topology/pasted.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { LedgerRequest } from "./ledger-types.ts";
import { isBareCommand, isRequest } from "./requests.ts";

const MAX_OPEN = 5;

export function openRequestsOf(events: readonly SessionEvent[]): LedgerRequest[] {
  const outcomes = new Map<string, SessionEvent>();
  for (const e of events) if (e.event_type === "outcome" && e.parent_event_id) outcomes.set(e.parent_event_id, e);
  const requests = events.filter((e) => isRequest(e) && !isBareCommand(e.text));
  const out: LedgerRequest[] = [];
  for (const r of requests) {
    const o = outcomes.get(r.event_id);
    if (!o) continue;
    const outcome = String(o.meta["outcome"] ?? o.status ?? "");
    if (outcome === "done" || outcome === "superseded") continue;
    out.push(entry(r, outcome, String(o.meta["why"] ?? ""), [r.event_id, o.event_id]));
  }
  const last = requests.at(-1);
  if (last && !outcomes.has(last.event_id)) out.push(latest(events, last));
  return out.slice(-MAX_OPEN);
}

/**
 * How the latest request stands: its last check, and whether the agent's reply is the last thing that happened
 * (it answered and stopped: the request waits for the user, who may have left it there) or work went on after.
 */
function latest(events: readonly SessionEvent[], last: SessionEvent): LedgerRequest {
  let check: SessionEvent | undefined;
  let reply: SessionEvent | undefined;
  for (const e of events) {
    if (e.ordinal <= last.ordinal) continue;
    if (e.event_type === "test_result" && e.status !== "unknown") check = e;
    else if (e.event_type === "assistant_message" && e.text.trim() !== "") reply = e;
    else if (e.event_type === "tool_call") reply = undefined;
  }
  const checked = check ? `last check ${check.status === "pass" ? "passed" : "failed"}` : "no check since";
  const cites = [last.event_id, ...(check ? [check.event_id] : []), ...(reply ? [reply.event_id] : [])];
  return reply
    ? entry(last, "awaiting the user", `${checked}; the agent answered and stopped`, cites)
    : entry(last, "in progress", checked, cites);
}

function entry(r: SessionEvent, outcome: string, why: string, cites: string[]): LedgerRequest {
  const words = typedPart(r).replace(/\s+/g, " ").trim();
  return { text: words, turn: r.turn, ordinal: r.ordinal, outcome, why, cites };
}
