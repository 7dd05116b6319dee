/** The store's side of semantic search: evidence bundles, their vectors, and the settings that say how they were made. */
import type { EventType, SessionEvent } from "../topology/types.ts";
import type { EventHit, EventQuery } from "./query-types.ts";

/** Stored by index in the vector chunks: new kinds go at the end. */
export const BUNDLE_KINDS = ["tool", "error", "test", "decision", "resume", "request", "reply", "outcome"] as const;
export type BundleKind = (typeof BUNDLE_KINDS)[number];
/**
 * A bundle shows at most this many characters of the head or the tail of any event's text (shared/bundle-text.ts keeps
 * its clips under it), so the events a bundle is built from are read as their two ends, never whole.
 */
export const BUNDLE_END_CHARS = 16_384;

/** The kind of bundle an event shows, by the event's type (a tool bundle shows its call). */
export const BUNDLE_KIND_OF_EVENT: Partial<Record<EventType, BundleKind>> = {
  tool_call: "tool",
  error: "error",
  test_result: "test",
  decision: "decision",
  resume_point: "resume",
  user_message: "request",
  assistant_message: "reply",
  outcome: "outcome",
};

/** A bundle to store: the text to embed and the event a hit on it shows. */
export interface BundleRow {
  anchor_rowid: number;
  event_id: string;
  session_id: string;
  kind: BundleKind;
  text: string;
}

export interface QueuedAnchor {
  rowid: number;
  event: SessionEvent;
}

export interface PendingBundle {
  anchor_rowid: number;
  kind: BundleKind;
  text: string;
}

export interface VectorState {
  /** The embedder that made the stored vectors, or null before any. */
  embedder: string | null;
  dimension: number | null;
  bundles: number;
  embedded: number;
  queued: number;
}

export interface VectorHit extends EventHit {
  /** Cosine distance: 0 is the same direction, 1 unrelated; similarity is 1 − distance. */
  distance: number;
  bundle_kind: BundleKind;
}

/**
 * A session's bundles as `cairn push` carries them to another index: anchors named by their event ids (row ids
 * differ between indexes), vectors as their int8 codes, with the embedder that made them.
 */
export interface CarriedBundles {
  embedder: string | null;
  dimension: number | null;
  /** Anchors whose bundles are not built yet. */
  queued: string[];
  bundles: CarriedBundle[];
}

export interface CarriedBundle {
  anchor_event_id: string;
  event_id: string;
  kind: BundleKind;
  text: string;
  embedded: boolean;
  code: Buffer | null;
}

/** What a query reads of the semantic layer. */
export interface BundleReads {
  getSetting(key: string): string | null;
  /** Counts bundles: a scan of the bundles table, for status and refresh, not for every query. */
  vectorState(): VectorState;
  /** What a query needs to know, in a few index lookups: who made the vectors, and whether any or all are there. */
  vectorInfo(): { embedder: string | null; dimension: number | null; any: boolean; pending: boolean };
  /** Cosine similarity of the vector to the stored vectors of these events (those that show an embedded bundle). */
  similarities(vector: Float32Array, eventIds: readonly string[]): Map<string, number>;
  /** Nearest bundles to a unit vector, as the events they show, filtered like a text query. */
  nearestEvents(vector: Float32Array, query: EventQuery): VectorHit[];
  /** One session's bundles and vector codes, to carry to another index. */
  sessionBundles(sessionId: string): CarriedBundles;
}

/** Keeping the semantic layer current: building queued bundles and embedding them (`search/vectors.ts`). */
export interface VectorUpkeep extends BundleReads {
  putSetting(key: string, value: string): void;
  /**
   * The heads (first `chars` characters of the text) of these events, those that exist, in one read: what
   * `getEventHead` gives for each. Optional: without it the events are read one by one.
   */
  eventHeads?(ids: readonly string[], chars: number): SessionEvent[];
  /** Events queued (by triggers) since their bundle was last built, oldest first. */
  bundleQueue(limit: number): QueuedAnchor[];
  /** Stores built bundles and clears their queue entries; `dropped` anchors no longer make a bundle. */
  putBundles(done: readonly number[], bundles: readonly BundleRow[]): void;
  /** Bundles without a vector from the current embedder, in anchor order, after the anchor `after` when given. */
  pendingBundles(limit: number, after?: number): PendingBundle[];
  /** Stores vectors and marks their bundles embedded; a null vector (nothing to embed) marks it without one. */
  putVectors(rows: ReadonlyArray<{ anchor_rowid: number; kind: BundleKind; vector: Float32Array | null }>): void;
  /** Rebuilds the vector index when deleted and re-embedded vectors left many dead slots; true when it did. */
  compactVectors(): boolean;
  /** Starts over with another embedder: a vector table of its dimension, every bundle pending. */
  resetVectors(embedder: string | null, dimension: number): void;
}
