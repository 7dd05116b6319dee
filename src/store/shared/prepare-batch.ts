/**
 * A topology batch turned into the exact values the SQLite writer binds: meta as JSON, full-text columns, the
 * implicit parent edge folded into its event, stored edges only. Pure, so the indexer can prepare batches in a
 * worker thread while the main thread writes.
 */
import { findSecrets } from "../../secrets/detect.ts";
import type { TopologyBatch } from "../../topology/normalizer-state.ts";
import { DERIVED_EVENT_TYPES, PARENT_EDGE_DIRECTION, type Problem } from "../../topology/types.ts";
import { ftsColumns } from "./fts-text.ts";
import { packMeta } from "./packed-meta.ts";
import { encodeStored } from "./text-codec.ts";
import { usageValues } from "./usage-rows.ts";

/**
 * Positional values of `INSERT INTO session_events(...)`, in `EVENT_INSERT_COLUMNS` order: the logical row, as
 * every store reads it. The text may be its UTF-8 bytes instead of a string (a large text moved from the parse
 * worker); the writer stores either as text.
 */
export type EventValues = unknown[];

/**
 * How the SQLite store keeps an event's text and meta where that differs from `values`: the text compressed
 * (always bytes, shared/text-codec.ts), the meta packed (shared/packed-meta.ts, a string) and maybe compressed
 * (bytes). Bytes here are always compressed; bytes in `values` never are.
 */
export interface StoredForms {
  text?: Uint8Array;
  meta?: string | Uint8Array;
}

/** The event columns seed 004 names, in its order (DESIGN §2): the rest of a row is what incremental reading needs. */
export const SEED_EVENT_COLUMNS = [
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
] as const;

export const EVENT_INSERT_COLUMNS = [
  ...SEED_EVENT_COLUMNS,
  "parent_edge",
  "source_file",
  "source_line",
  "turn",
  "tokens",
  "meta",
] as const;

export interface PreparedBatch {
  sessions: Array<Record<string, unknown>>;
  events: Array<{
    values: EventValues;
    fts: [text: string, idents: string, facets: string, stems: string];
    /** The SQLite store's forms of the text and meta, when they differ from `values`. */
    stored?: StoredForms;
  }>;
  edges: Array<[src: string, dst: string, type: string, session: string, meta: string | null]>;
  entities: Array<[id: string, kind: string, key: string, display: string]>;
  problems: Array<[file: string, line: number, reason: string, excerpt: string]>;
  /** Model calls' usage, in \`USAGE_COLUMNS\` order. */
  usage: unknown[][];
  /** Sessions whose totals need recounting. */
  sessionIds: string[];
}

/** The facet token of an event that holds a secret (`kind:secret` in search). */
export const SECRET_FACET = "k_secret";
/** The edge from an event to each secret it holds; meta has the kind and where it stands in the text. */
export const SECRET_EDGE = "exposes";

export interface PrepareOptions {
  /** Scan event text for secrets (default on; the index benchmark turns it off to measure what it costs). */
  secrets?: boolean;
  /** Make the SQLite store's forms of texts and metas (default on; a store that keeps them as they are skips it). */
  storedForms?: boolean;
}

/**
 * The secrets in an event's text as `secret` entities (`secret:<kind>:<fingerprint>`, never the value) and an
 * `exposes` edge from the event to each, with the spans in its meta. Derived events repeat a part of the text
 * of the event they come from, so only primary events are scanned.
 */
function exposeSecrets(
  ev: TopologyBatch["events"][number],
  edges: PreparedBatch["edges"],
  entities: PreparedBatch["entities"],
): boolean {
  if (ev.parent_event_id !== null && DERIVED.has(ev.event_type)) return false;
  const found = findSecrets(ev.text);
  if (found.length === 0) return false;
  const byEntity = new Map<string, { kind: string; spans: Array<[number, number]> }>();
  for (const f of found) {
    const id = `secret:${f.kind}:${f.fingerprint}`;
    const entry = byEntity.get(id) ?? { kind: f.kind, spans: [] };
    entry.spans.push([f.at, f.length]);
    byEntity.set(id, entry);
  }
  for (const [id, { kind, spans }] of byEntity) {
    entities.push([id, "secret", id.slice("secret:".length), `${kind} ${id.slice(-12)}`]);
    edges.push([ev.event_id, id, SECRET_EDGE, ev.session_id, JSON.stringify({ kind, spans })]);
  }
  return true;
}

const DERIVED = new Set<string>(DERIVED_EVENT_TYPES);

/** The compression runs here, in the parse worker when there is one: the writer's thread is the bottleneck. */
function storedForms(ev: TopologyBatch["events"][number], meta: string): { stored?: StoredForms } {
  const stored: StoredForms = {};
  const text = encodeStored(ev.text);
  if (typeof text !== "string") stored.text = text;
  const packed = (ev.event_type === "tool_call" ? packMeta(ev.text, ev.meta) : null) ?? meta;
  const storedMeta = encodeStored(packed);
  if (storedMeta !== meta) stored.meta = storedMeta;
  return stored.text === undefined && stored.meta === undefined ? {} : { stored };
}

export function prepareBatch(
  batch: TopologyBatch,
  problems: readonly Problem[],
  options: PrepareOptions = {},
): PreparedBatch {
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
  const entities: PreparedBatch["entities"] = batch.entities.map((e) => [e.entity_id, e.kind, e.key, e.display]);
  const events: PreparedBatch["events"] = unique.map((ev) => {
    sessionIds.add(ev.session_id);
    const fts = ftsColumns(ev);
    if (options.secrets !== false && exposeSecrets(ev, edges, entities)) fts.facets += ` ${SECRET_FACET}`;
    const meta = JSON.stringify(ev.meta);
    return {
      ...(options.storedForms === false ? {} : storedForms(ev, meta)),
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
        meta,
      ],
      fts: [fts.text, fts.idents, fts.facets, fts.stems],
    };
  });
  return {
    sessions: batch.sessions.map((s) => ({ ...s, meta: JSON.stringify(s.meta) })),
    events,
    edges,
    entities,
    problems: problems.map((p) => [p.source_file, p.source_line, p.reason, p.excerpt]),
    usage: batch.usage.map(usageValues),
    sessionIds: [...sessionIds],
  };
}
