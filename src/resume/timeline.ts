/**
 * The events a brief is built from: one session read from the store up to a cut, "as if it had ended there".
 * The cut's own derived events (the command, test result or error read off a tool result) belong to it.
 */
import { resolveEventId } from "../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import { DERIVED_EVENT_TYPES, type SessionEvent } from "../topology/types.ts";
import { branchEvents } from "./branch.ts";

export interface Timeline {
  session: SessionRow;
  /** Events up to and including the cut, in ordinal order (primary and derived). */
  events: SessionEvent[];
  byId: ReadonlyMap<string, SessionEvent>;
  /** The last event the brief covers. */
  cut: SessionEvent;
  /** Whether the cut is the session's last event (no `--at`). */
  atEnd: boolean;
  /** Estimated tokens of the primary events: the size of what the agent saw, the base of `--ratio`. */
  originalTokens: number;
}

export interface TimelineOptions {
  /** Event id (or unique prefix) to cut at; default the session's last event. */
  at?: string;
  /** Leaf of the branch to follow (pi session trees); other branches are left out. */
  leaf?: string;
}

const DERIVED: ReadonlySet<string> = new Set(DERIVED_EVENT_TYPES);

export function isDerived(e: SessionEvent): boolean {
  return DERIVED.has(e.event_type);
}

export function loadTimeline(store: ReadonlyStore, sessionId: string, opts: TimelineOptions = {}): Timeline {
  const session = store.getSession(sessionId);
  if (!session) throw new Error(`no session ${sessionId} in the index`);
  let all = store.sessionEvents(sessionId);
  if (all.length === 0) throw new Error(`session ${sessionId} has no events`);
  if (opts.leaf) {
    const leaf = resolveEventId(store, opts.leaf, { sessionId });
    all = branchEvents(all, leaf.event_id);
  }
  let cut = all[all.length - 1]!;
  let atEnd = true;
  if (opts.at) {
    const at = resolveEventId(store, opts.at, { sessionId });
    // Derived events hang off a primary one; cutting at one means cutting at its source.
    const source = isDerived(at) && at.parent_event_id ? (store.getEvent(at.parent_event_id) ?? at) : at;
    cut = source;
    atEnd = false;
  }
  const events = all.filter((e) => e.ordinal <= cut.ordinal || (e.parent_event_id === cut.event_id && isDerived(e)));
  if (atEnd) cut = lastPrimary(events) ?? cut;
  else atEnd = events.length === all.length;
  let originalTokens = 0;
  const byId = new Map<string, SessionEvent>();
  for (const e of events) {
    byId.set(e.event_id, e);
    if (!isDerived(e)) originalTokens += e.tokens;
  }
  return { session, events, byId, cut, atEnd, originalTokens };
}

function lastPrimary(events: readonly SessionEvent[]): SessionEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (!isDerived(events[i]!)) return events[i];
  return undefined;
}
