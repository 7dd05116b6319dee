/**
 * The events a brief is built from: one session read from the store up to a cut, "as if it had ended there".
 * The cut's own derived events (the command, test result or error read off a tool result) belong to it. A session
 * that carries on another's conversation (a compaction's continuation, `meta.continues`) is read with the work
 * before it: its predecessor's events up to where it began, then its own, positions running on.
 */
import { resolveEventId } from "../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import { DERIVED_EVENT_TYPES, type SessionEvent } from "../topology/types.ts";
import { branchEvents } from "./branch.ts";

export interface Timeline {
  session: SessionRow;
  /** The sessions it carries on from, oldest first, whose events come first (empty for most sessions). */
  continues: SessionRow[];
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
  /** The session's events as `loadChain` read them, when the caller has them already. */
  chain?: SessionChain;
}

/** A session with the work it carries on from: the events a brief of it reads, before any cut. */
export interface SessionChain {
  session: SessionRow;
  continues: SessionRow[];
  /** The predecessors' events up to where each continuation began, then the session's own; ordinals run on. */
  events: SessionEvent[];
}

/** Continuations followed back at most this far (a session compacted over and over). */
const MAX_CONTINUES = 32;

const DERIVED: ReadonlySet<string> = new Set(DERIVED_EVENT_TYPES);

export function isDerived(e: SessionEvent): boolean {
  return DERIVED.has(e.event_type);
}

export function loadTimeline(store: ReadonlyStore, sessionId: string, opts: TimelineOptions = {}): Timeline {
  const chain = opts.chain ?? loadChain(store, sessionId, opts.leaf);
  const { session, continues } = chain;
  const all = chain.events;
  let cut = all[all.length - 1]!;
  let atEnd = true;
  if (opts.at) {
    const at = resolveEventId(store, opts.at, { sessionId });
    // Derived events hang off a primary one; cutting at one means cutting at its source.
    const id =
      isDerived(at) && at.parent_event_id && store.getEvent(at.parent_event_id) ? at.parent_event_id : at.event_id;
    // The chain's copy: its position runs on from the predecessors'.
    cut = all.find((e) => e.event_id === id) ?? at;
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
  return { session, continues, events, byId, cut, atEnd, originalTokens };
}

/**
 * A session's events with those of the sessions it carries on from. `leaf` follows one branch of the session's
 * own tree (pi); the predecessors' events come whole, up to where their continuation began.
 */
export function loadChain(store: ReadonlyStore, sessionId: string, leaf?: string): SessionChain {
  const session = store.getSession(sessionId);
  if (!session) throw new Error(`no session ${sessionId} in the index`);
  let own = store.sessionEvents(sessionId);
  if (own.length === 0) throw new Error(`session ${sessionId} has no events`);
  if (leaf) own = branchEvents(own, resolveEventId(store, leaf, { sessionId }).event_id);
  const continues = predecessorsOf(store, session);
  if (continues.length === 0) return { session, continues, events: own };
  const events: SessionEvent[] = [];
  const parts = [...continues, session];
  for (let i = 0; i < parts.length; i++) {
    const next = parts[i + 1];
    const mine = next ? before(store.sessionEvents(parts[i]!.session_id), next) : own;
    const last = events[events.length - 1];
    // Positions and turns run on from the work before: one conversation, as the agent saw it.
    const ordinal = last ? last.ordinal + 1 - (mine[0]?.ordinal ?? 0) : 0;
    const turn = last ? last.turn : 0;
    for (const e of mine)
      events.push(ordinal === 0 && turn === 0 ? e : { ...e, ordinal: e.ordinal + ordinal, turn: e.turn + turn });
  }
  return { session, continues, events };
}

/** The sessions a session carries on from, oldest first: each names the one before in `meta.continues`. */
function predecessorsOf(store: ReadonlyStore, session: SessionRow): SessionRow[] {
  const out: SessionRow[] = [];
  const seen = new Set([session.session_id]);
  for (let s = session; out.length < MAX_CONTINUES; ) {
    const id = s.meta["continues"];
    const prev = typeof id === "string" && !seen.has(id) ? store.getSession(id) : undefined;
    if (!prev) break;
    seen.add(prev.session_id);
    out.unshift(prev);
    s = prev;
  }
  return out;
}

/** A predecessor's events up to where its continuation began (it may have gone on being written after). */
function before(events: readonly SessionEvent[], next: SessionRow): SessionEvent[] {
  const start = next.started_at;
  return start === null ? [...events] : events.filter((e) => e.timestamp === null || e.timestamp <= start);
}

function lastPrimary(events: readonly SessionEvent[]): SessionEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (!isDerived(events[i]!)) return events[i];
  return undefined;
}
