/**
 * A session as a conversation: its messages, each tool call with its result (input typed, output clipped), the
 * failures, checks and decisions marked on the block they came from, compactions and resume points as dividers,
 * and each subagent's own conversation nested where it was started. `at` names any event of the session (a
 * timeline row, a search hit, a citation): the answer says which block holds it.
 */
import { resolveEventId, resolveSessionId } from "../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import { type SessionEvent, sessionNode } from "../topology/types.ts";
import { type Block, exportBlocks } from "./export/blocks.ts";

/** Most characters of a tool's input or output shown in place; the event's page has the rest. */
const MAX_TEXT = 6_000;
/** Subagents nest this deep (a subagent's subagent shows; deeper ones are a link). */
const MAX_DEPTH = 2;

export type ConversationItem =
  | Exclude<Block, { kind: "day" }>
  | { kind: "subagent"; session: SessionRow; time: string | null; items: ConversationItem[] }
  /** What a fork copied from its parent before it began: the parent's conversation up to the fork, folded. */
  | { kind: "inherited"; from: SessionRow | null; time: string | null; items: ConversationItem[] };

export interface Conversation {
  session: SessionRow;
  items: ConversationItem[];
  /** The block holding the event asked for (`at`), or null. */
  focus: string | null;
}

export function conversation(store: ReadonlyStore, req: { session: string; at?: string }): Conversation {
  const session = resolveSessionId(store, req.session);
  const events = store.sessionEvents(session.session_id);
  const items = inheritedFirst(store, session, itemsOf(store, session, events, 1));
  let focus: string | null = null;
  if (req.at !== undefined) {
    const at = resolveEventId(store, req.at);
    if (at.session_id === session.session_id) focus = blockOf(at.event_id, events, items);
  }
  return { session, items, focus };
}

function itemsOf(store: ReadonlyStore, session: SessionRow, events: SessionEvent[], depth: number): ConversationItem[] {
  const blocks = exportBlocks({ kind: "session", sessions: [session], events }, MAX_TEXT).filter(
    (b): b is Exclude<Block, { kind: "day" }> => b.kind !== "day",
  );
  const items: ConversationItem[] = [...blocks];
  if (depth > MAX_DEPTH) return items;
  for (const child of childSessions(store, session.session_id)) {
    const nested: ConversationItem = {
      kind: "subagent",
      session: child,
      time: child.started_at,
      items: itemsOf(store, child, store.sessionEvents(child.session_id), depth + 1),
    };
    items.splice(placeOf(items, child.started_at), 0, nested);
  }
  return items;
}

/**
 * A fork's file starts with its parent's events, copied with their own times, before the fork's own start: they are
 * gathered into one folded block, so the conversation opens where the fork began.
 */
function inheritedFirst(store: ReadonlyStore, session: SessionRow, items: ConversationItem[]): ConversationItem[] {
  const start = session.started_at;
  if (session.kind !== "fork" || start === null) return items;
  let n = 0;
  while (n < items.length && items[n]!.kind !== "subagent" && (items[n]!.time ?? start) < start) n++;
  if (n === 0) return items;
  const from = session.parent_session_id ? (store.getSession(session.parent_session_id) ?? null) : null;
  return [{ kind: "inherited", from, time: items[0]!.time, items: items.slice(0, n) }, ...items.slice(n)];
}

/** Subagents and forks started from the session, oldest first. */
function childSessions(store: ReadonlyStore, sessionId: string): SessionRow[] {
  return store
    .edgesTo(sessionNode(sessionId))
    .filter((e) => e.edge_type === "spawned_by")
    .map((e) => store.getSession(e.src.replace(/^session:/, "")))
    .filter((s): s is SessionRow => s !== undefined && s.kind !== "main")
    .sort((a, b) => (a.started_at ?? "").localeCompare(b.started_at ?? ""));
}

/** After the last item that started no later than the subagent (its spawning call, when the times are right). */
function placeOf(items: readonly ConversationItem[], startedAt: string | null): number {
  if (startedAt === null) return items.length;
  let at = 0;
  items.forEach((item, i) => {
    const time = item.time;
    if (time !== null && time <= startedAt) at = i + 1;
  });
  return at;
}

/** The block an event is shown in: its own, or the block of the event it was derived from or answers. */
function blockOf(eventId: string, events: readonly SessionEvent[], items: readonly ConversationItem[]): string | null {
  const ids = new Set<string>();
  const flat = items.flatMap((i) => (i.kind === "inherited" ? i.items : [i]));
  for (const item of flat) {
    if (item.kind === "subagent" || item.kind === "inherited") continue;
    const id = item.kind === "mark" ? item.mark.event_id : item.event_id;
    ids.add(id);
  }
  const byId = new Map(events.map((e) => [e.event_id, e]));
  let e = byId.get(eventId);
  while (e) {
    if (ids.has(e.event_id)) return e.event_id;
    const holder = flat.find(
      (i) => (i.kind === "message" || i.kind === "tool") && i.marks.some((m) => m.event_id === e!.event_id),
    );
    if (holder && (holder.kind === "message" || holder.kind === "tool")) return holder.event_id;
    e = e.parent_event_id ? byId.get(e.parent_event_id) : undefined;
  }
  return null;
}
