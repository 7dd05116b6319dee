/**
 * A topology batch turned into the exact values the SQLite writer binds: meta as JSON, full-text columns, the
 * implicit parent edge folded into its event, stored edges only. Pure, so the indexer can prepare batches in a
 * worker thread while the main thread writes.
 */
import type { TopologyBatch } from "../topology/normalize.ts";
import { PARENT_EDGE_DIRECTION, type Problem } from "../topology/types.ts";
import { ftsColumns } from "./fts-text.ts";

/**
 * Positional values of `INSERT INTO session_events(...)`, in `EVENT_INSERT_COLUMNS` order. The text may be its
 * UTF-8 bytes instead of a string (a large text moved from the parse worker); the writer stores either as text.
 */
export type EventValues = unknown[];

export const EVENT_INSERT_COLUMNS = [
  "event_id",
  "session_id",
  "provider",
  "ordinal",
  "timestamp",
  "role",
  "event_type",
  "text",
  "tool_name",
  "command",
  "file_path",
  "status",
  "parent_event_id",
  "parent_edge",
  "source_file",
  "source_line",
  "turn",
  "tokens",
  "meta",
] as const;

export interface PreparedBatch {
  sessions: Array<Record<string, unknown>>;
  events: Array<{ values: EventValues; fts: [text: string, idents: string, facets: string, stems: string] }>;
  edges: Array<[src: string, dst: string, type: string, session: string, meta: string | null]>;
  entities: Array<[id: string, kind: string, key: string, display: string]>;
  problems: Array<[file: string, line: number, reason: string, excerpt: string]>;
  /** Sessions whose totals need recounting. */
  sessionIds: string[];
}

export function prepareBatch(batch: TopologyBatch, problems: readonly Problem[]): PreparedBatch {
  const parentEdge = new Map<string, string>();
  const edges: PreparedBatch["edges"] = [];
  for (const e of batch.edges) {
    const dir = PARENT_EDGE_DIRECTION[e.edge_type];
    if (dir === "child_to_parent") parentEdge.set(e.src, e.edge_type);
    else if (dir === "parent_to_child") parentEdge.set(e.dst, e.edge_type);
    else if (e.edge_type !== "next")
      edges.push([e.src, e.dst, e.edge_type, e.session_id, e.meta ? JSON.stringify(e.meta) : null]);
  }
  const sessionIds = new Set<string>();
  for (const s of batch.sessions) sessionIds.add(s.session_id);
  // A message written over several lines (Claude's content blocks) is re-stated with more text: within a batch
  // only its last version is written, in the place of its first, so the store needs no update for it.
  const latest = new Map<string, number>();
  const unique: typeof batch.events = [];
  for (const ev of batch.events) {
    const at = latest.get(ev.event_id);
    if (at === undefined) {
      latest.set(ev.event_id, unique.length);
      unique.push(ev);
    } else unique[at] = ev;
  }
  const events: PreparedBatch["events"] = unique.map((ev) => {
    sessionIds.add(ev.session_id);
    const fts = ftsColumns(ev);
    return {
      values: [
        ev.event_id,
        ev.session_id,
        ev.provider,
        ev.ordinal,
        ev.timestamp,
        ev.role,
        ev.event_type,
        ev.text,
        ev.tool_name,
        ev.command,
        ev.file_path,
        ev.status,
        ev.parent_event_id,
        parentEdge.get(ev.event_id) ?? null,
        ev.source_file,
        ev.source_line,
        ev.turn,
        ev.tokens,
        JSON.stringify(ev.meta),
      ],
      fts: [fts.text, fts.idents, fts.facets, fts.stems],
    };
  });
  return {
    sessions: batch.sessions.map((s) => ({ ...s, meta: JSON.stringify(s.meta) })),
    events,
    edges,
    entities: batch.entities.map((e) => [e.entity_id, e.kind, e.key, e.display]),
    problems: problems.map((p) => [p.source_file, p.source_line, p.reason, p.excerpt]),
    sessionIds: [...sessionIds],
  };
}
