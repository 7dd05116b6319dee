/** One event whole, with its edges in and out, each resolved to what it points at: what `show` and `get_event` answer. */
import { resolveEventId } from "../store/resolve.ts";
import type { ReadonlyStore } from "../store/types.ts";
import type { Edge, SessionEvent } from "../topology/types.ts";
import { oneLine } from "./text.ts";

export const EDGE_TARGET_KINDS = ["event", "entity", "session", "unknown"] as const;
export type EdgeTargetKind = (typeof EDGE_TARGET_KINDS)[number];

/** An edge seen from one event: the id at its other end and what that is. */
export interface ResolvedEdge {
  edge_type: string;
  /** The id at the other end: an event, an entity (`kind:key`) or a session. */
  other: string;
  other_kind: EdgeTargetKind;
  /** The event's type, the entity's kind or the session's provider; null when unknown. */
  other_type: string | null;
  /** The event's first line, the entity's name or the session's title (one line, bounded). */
  display: string;
  meta: Record<string, unknown> | null;
}

export interface EventAnswer {
  event: SessionEvent;
  edges: { out: ResolvedEdge[]; in: ResolvedEdge[] };
}

export function eventAnswer(store: ReadonlyStore, ref: string): EventAnswer {
  const event = resolveEventId(store, ref);
  return {
    event,
    edges: {
      out: store.edgesFrom(event.event_id).map((e) => resolveEdge(store, e, e.dst)),
      in: store.edgesTo(event.event_id).map((e) => resolveEdge(store, e, e.src)),
    },
  };
}

function resolveEdge(store: ReadonlyStore, edge: Edge, other: string): ResolvedEdge {
  const base = {
    edge_type: edge.edge_type,
    other,
    meta: edge.meta && Object.keys(edge.meta).length > 0 ? edge.meta : null,
  };
  const event = store.getEventHead(other, 2_000);
  if (event) return { ...base, other_kind: "event", other_type: event.event_type, display: oneLine(event.text, 120) };
  const entity = store.getEntity(other);
  if (entity) return { ...base, other_kind: "entity", other_type: entity.kind, display: oneLine(entity.display, 200) };
  const session = store.getSession(other);
  if (session)
    return { ...base, other_kind: "session", other_type: session.provider, display: oneLine(session.title, 120) };
  return { ...base, other_kind: "unknown", other_type: null, display: "" };
}
