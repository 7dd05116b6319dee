/**
 * Codex states most messages twice (a `response_item` and an `event_msg`, see `CodexState.pending`): the first of
 * the pair waits, and the next record either completes it, lets it go out alone, or shows it was no message at all.
 */
import { arr, contentText, type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import { QUIET_EVENTS, QUIET_ITEMS } from "./record-types.ts";
import type { CodexState } from "./state.ts";

/** Completed items that end a pending message's wait (everything else is bookkeeping that may sit between twins). */
const QUIET_WAIT_ITEMS = new Set(["item:UserMessage", "item:AgentMessage"]);

/** Completes a pending message with its twin, or lets it go out alone when the line is something else. */
export function pairWithPending(s: CodexState, type: string | undefined, p: Obj, out: RawRecord[]): boolean {
  const pending = s.pending!;
  let inner = type === "response_item" || type === "event_msg" ? str(p["type"]) : type;
  // 0.16x states prompts and replies as completed items instead of user_message / agent_message events.
  const item = inner === "item_completed" ? obj(p["item"]) : undefined;
  if (item) inner = `item:${str(item["type"]) ?? ""}`;
  if (pending.kind === "user" && ((type === "event_msg" && inner === "user_message") || inner === "item:UserMessage")) {
    const text = item ? itemText(item) : str(p["message"]);
    out.push({ ...pending.record, text: text || pending.record.text, typed: true });
    s.pending = null;
    return true;
  }
  if (pending.kind === "assistant" && !pending.bare && inner === "message" && str(p["role"]) === "assistant") {
    out.push({ ...pending.record, text: contentText(p["content"]), meta: { ...phaseMeta(p) } });
    s.pending = null;
    return true;
  }
  if (pending.kind === "assistant" && pending.bare && (inner === "agent_message" || inner === "item:AgentMessage")) {
    // The twin came second: the reply is already pending.
    return true;
  }
  if (pending.bare && inner === "task_complete") {
    // The turn ended on this reply: it was no compaction's summary.
    flushPending(s, out);
    return false;
  }
  if (pending.kind === "assistant" && pending.bare && type === "compacted") {
    // The reply right before a compaction is the summary the compaction states; it was never shown as a reply.
    s.pending = null;
    return false;
  }
  if (!keepsWaiting(type, inner, item)) flushPending(s, out);
  return false;
}

/** Bookkeeping that may sit between twins: the pending message keeps waiting past it. */
function keepsWaiting(type: string | undefined, inner: string | undefined, item: Obj | undefined): boolean {
  return (
    (type === "event_msg" && inner !== undefined && QUIET_EVENTS.has(inner)) ||
    (item !== undefined && !QUIET_WAIT_ITEMS.has(inner ?? "")) ||
    (type !== undefined && QUIET_ITEMS.has(type)) ||
    (type === "response_item" && inner === "reasoning")
  );
}

/** Lets a pending message go out alone: its twin is not coming. */
export function flushPending(s: CodexState, out: RawRecord[]): void {
  const pending = s.pending;
  if (!pending) return;
  s.pending = null;
  if (pending.kind === "user") {
    // Since rollouts carry event_msg, typed prompts always come with an event_msg twin; an unpaired user-role
    // item is injected context. Bare (pre-envelope) rollouts have no twins, so there it is the prompt.
    out.push(
      pending.envelope
        ? { ...pending.record, typed: false, meta: { injected: "unpaired" } }
        : { ...pending.record, typed: true },
    );
  } else out.push(pending.record);
}

/** The text of a 0.16x item (UserMessage, AgentMessage): its content blocks' texts. */
export function itemText(item: Obj): string {
  return (arr(item["content"]) ?? [])
    .map((b) => str(obj(b)?.["text"]) ?? "")
    .filter((t) => t !== "")
    .join("\n");
}

/** A reply's `phase` (commentary or final answer), which either twin may carry. */
export function phaseMeta(p: Obj): Record<string, unknown> | undefined {
  const phase = str(p["phase"]);
  return phase ? { phase } : undefined;
}
