import type { TopologyBatch } from "./normalizer-state.ts";
import type { Edge, Entity, SessionEvent, SessionInfo } from "./types.ts";

export interface Topology {
  sessions: SessionInfo[];
  events: SessionEvent[];
  edges: Edge[];
  entities: Entity[];
}

/**
 * Accumulates batches in memory with the store's semantics: events and sessions upsert by id, edges are a set, an
 * entity keeps its first display.
 */
export class TopologyCollector {
  private readonly sessions = new Map<string, SessionInfo>();
  private readonly events = new Map<string, SessionEvent>();
  private readonly edges = new Map<string, Edge>();
  private readonly entities = new Map<string, Entity>();

  add(batch: TopologyBatch): void {
    for (const s of batch.sessions) this.sessions.set(s.session_id, s);
    for (const e of batch.events) this.events.set(e.event_id, e);
    for (const e of batch.edges) this.edges.set(`${e.src}\u0000${e.dst}\u0000${e.edge_type}`, e);
    for (const e of batch.entities) {
      // As the store keeps them: the first display seen, unless it was an error's bare signature.
      const had = this.entities.get(e.entity_id);
      if (!had || (had.kind === "error_signature" && had.display === had.key)) this.entities.set(e.entity_id, e);
    }
  }

  result(): Topology {
    const events = [...this.events.values()].sort((a, b) =>
      a.session_id === b.session_id ? a.ordinal - b.ordinal : a.session_id < b.session_id ? -1 : 1,
    );
    return {
      sessions: [...this.sessions.values()],
      events,
      edges: [...this.edges.values()],
      entities: [...this.entities.values()],
    };
  }
}
