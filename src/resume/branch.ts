/**
 * One branch of a session tree (pi sessions branch when the user goes back and continues elsewhere). The branch
 * of a leaf is the leaf's ancestors by `parent_event_id`, the tool calls those messages issued, their results,
 * and the events derived from any of these. Sibling branches hang off the path through a plain `parent` link
 * from a user or assistant message, which is exactly what is not followed downwards.
 */
import { DERIVED_EVENT_TYPES, type SessionEvent } from "../topology/types.ts";

const DERIVED: ReadonlySet<string> = new Set(DERIVED_EVENT_TYPES);

export function branchEvents(events: readonly SessionEvent[], leafId: string): SessionEvent[] {
  const byId = new Map(events.map((e) => [e.event_id, e]));
  const keep = new Set<string>();
  for (
    let e = byId.get(leafId);
    e && !keep.has(e.event_id);
    e = e.parent_event_id ? byId.get(e.parent_event_id) : undefined
  )
    keep.add(e.event_id);
  if (keep.size === 0) return [...events];
  // Children in ordinal order: a parent is always seen before its calls, results and derived events.
  for (const e of events) {
    if (keep.has(e.event_id) || !e.parent_event_id || !keep.has(e.parent_event_id)) continue;
    const parent = byId.get(e.parent_event_id)!;
    const call = e.event_type === "tool_call" && parent.event_type === "assistant_message";
    const result = e.event_type === "tool_result" && parent.event_type === "tool_call";
    if (call || result || DERIVED.has(e.event_type)) keep.add(e.event_id);
  }
  keepWrittenDuringCalls(events, keep);
  return events.filter((e) => keep.has(e.event_id));
}

/**
 * A notebook page an extension wrote while a tool ran sits in pi's tree between the call and its result; here the
 * result hangs off its call, so the page hangs off the message that made the call, like a sibling branch would. It
 * is on the branch when the next primary event, the result, is.
 */
function keepWrittenDuringCalls(events: readonly SessionEvent[], keep: Set<string>): void {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (keep.has(e.event_id) || e.meta["notebook"] !== true || !e.parent_event_id || !keep.has(e.parent_event_id))
      continue;
    let next: SessionEvent | undefined;
    for (let j = i + 1; j < events.length && !next; j++) if (!DERIVED.has(events[j]!.event_type)) next = events[j];
    if (next?.event_type === "tool_result" && keep.has(next.event_id)) keep.add(e.event_id);
  }
}
