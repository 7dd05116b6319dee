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
  return events.filter((e) => keep.has(e.event_id));
}
