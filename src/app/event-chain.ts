/**
 * An event with where it came from: its session and the chain of parents above it (the tool call behind a
 * result, the message behind a call), each shortened to what a page shows beside the event.
 */
import type { SessionRow } from "../store/types.ts";
import type { EventType } from "../topology/types.ts";
import type { ReadCairn } from "./cairn.ts";
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

export function eventWithChain(
  app: Pick<ReadCairn, "event" | "session">,
  ref: string,
  depth = CHAIN_DEPTH,
): EventWithChain {
  const answer = app.event(ref);
  const session = app.session(answer.event.session_id);
  const chain: ChainLink[] = [];
  const seen = new Set([answer.event.event_id]);
  for (let parent = answer.event.parent_event_id; parent && chain.length < depth; ) {
    if (seen.has(parent)) break;
    seen.add(parent);
    const up = app.event(parent).event;
    chain.push({
      event_id: up.event_id,
      event_type: up.event_type,
      status: up.status,
      ordinal: up.ordinal,
      text: up.text.slice(0, 400),
    });
    parent = up.parent_event_id;
  }
  return { ...answer, session, chain };
}
