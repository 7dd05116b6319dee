/**
 * An event with where it came from: its session and the chain of parents above it (the tool call behind a
 * result, the message behind a call), each shortened to what a page shows beside the event.
 */
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import type { EventType } from "../topology/types.ts";
import type { EventAnswer } from "./event.ts";

/** How far up the evidence chain an answer goes by default. */
export const CHAIN_DEPTH = 6;

export interface ChainLink {
  event_id: string;
  event_type: EventType;
  status: string | null;
  ordinal: number;
  /** The parent's text, cut to 400 characters. */
  text: string;
}

export interface EventWithChain extends EventAnswer {
  session: SessionRow;
  /** Parents, nearest first; stops at a loop, a missing parent or `depth` links. */
  chain: ChainLink[];
}

/**
 * The chain above an event already resolved. Parents are exact ids: one the index does not hold (a subagent's
 * first message points into its lead's transcript; a record the agent never wrote) ends the chain, and the event
 * asked for is still the answer.
 */
export function withChain(
  store: Pick<ReadonlyStore, "getEventHead" | "getSession">,
  answer: EventAnswer,
  depth = CHAIN_DEPTH,
): EventWithChain | undefined {
  const session = store.getSession(answer.event.session_id);
  if (!session) return undefined;
  const chain: ChainLink[] = [];
  const seen = new Set([answer.event.event_id]);
  for (let parent = answer.event.parent_event_id; parent && chain.length < depth && !seen.has(parent); ) {
    seen.add(parent);
    const up = store.getEventHead(parent, 400);
    if (!up) break;
    const { event_id, event_type, status, ordinal, text } = up;
    chain.push({ event_id, event_type, status, ordinal, text });
    parent = up.parent_event_id;
  }
  return { ...answer, session, chain };
}
