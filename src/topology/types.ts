/**
 * Row shapes of the event topology. Field names follow the seed's `session_events` columns (snake_case), so the
 * same objects are what the store persists and what `--json` prints.
 */

export {
  type Meta,
  type Provider,
  SESSION_KINDS,
  type SessionKind,
  WORK_KINDS,
} from "../readers/vocabulary.ts";

import type { Meta, Provider, SessionKind } from "../readers/vocabulary.ts";

export const EVENT_TYPES = [
  "user_message",
  "assistant_message",
  "tool_call",
  "tool_result",
  "file_action",
  "command",
  "test_result",
  "error",
  "decision",
  "resume_point",
  "outcome",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event kinds computed from other events; they always carry `parent_event_id`. */
export const DERIVED_EVENT_TYPES: readonly EventType[] = [
  "file_action",
  "command",
  "test_result",
  "error",
  "decision",
  "outcome",
] as const;

export const EDGE_TYPES = [
  /** event → next event of the same session (primary events only, by ordinal). */
  "next",
  /** assistant_message → tool_call it issued. */
  "calls",
  /** tool_call → its tool_result. */
  "result",
  /** tool_call → file entity (op in meta). */
  "touches",
  /** tool_call → command entity. */
  "runs",
  /** tool_result → error_signature entity. */
  "fails_with",
  /** session → decision event. */
  "decision",
  /** session → resume_point event. */
  "resume_point",
  /** event → the provider's own parent (Claude `parentUuid`, pi `parentId`), so branches stay visible. */
  "parent",
  /** derived event → the event it was derived from. */
  "derived_from",
  /** session → branch entity. */
  "on_branch",
  /** session → the session it was forked or spawned from. */
  "spawned_by",
  /** decision → the earlier decision on the same subject it replaces. */
  "supersedes",
  /** outcome → an event it rests on (the passing check, the failure, the correcting message). */
  "evidence",
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/**
 * Edge types that follow from event columns (`ordinal`, `parent_event_id`): the store keeps them implicit and
 * rebuilds them on read, so it writes a fraction of the rows. `PARENT_EDGE_DIRECTION` says which way each of the
 * parent-column edges points.
 */
export const IMPLICIT_EDGE_TYPES: readonly EdgeType[] = ["next", "parent", "derived_from", "result", "calls"];
export const PARENT_EDGE_DIRECTION: Partial<Record<EdgeType, "child_to_parent" | "parent_to_child">> = {
  parent: "child_to_parent",
  derived_from: "child_to_parent",
  result: "parent_to_child",
  calls: "parent_to_child",
};

export const ENTITY_KINDS = ["file", "command", "error_signature", "branch"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

export interface SessionEvent {
  event_id: string;
  session_id: string;
  provider: Provider;
  /** Position in the session's timeline, dense from 0; stable under appends. */
  ordinal: number;
  timestamp: string | null;
  role: string | null;
  event_type: EventType;
  text: string;
  tool_name: string | null;
  command: string | null;
  file_path: string | null;
  status: string | null;
  parent_event_id: string | null;
  source_file: string;
  /** 1-based line of the record the event came from. */
  source_line: number;
  /** Index of the typed user message this event follows (0 before the first one). */
  turn: number;
  /** Estimated tokens of `text`, counted once at normalization. */
  tokens: number;
  meta: Meta;
}

/** An edge endpoint is an event id, a session id (`session:<id>`) or an entity id (`<kind>:<key>`). */
export interface Edge {
  src: string;
  dst: string;
  edge_type: EdgeType;
  session_id: string;
  meta?: Meta;
}

export interface Entity {
  entity_id: string;
  kind: EntityKind;
  key: string;
  display: string;
}

export interface SessionInfo {
  session_id: string;
  provider: Provider;
  kind: SessionKind;
  cwd: string | null;
  /** Project label: the working directory's last path segment. */
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  parent_session_id: string | null;
  git_branch: string | null;
  model: string | null;
  source_file: string;
  meta: Meta;
}

/**
 * One model call's tokens as its agent recorded them (readers' `CallTokens`), where they were read: the usage report
 * deduplicates copies by `call` and sums the rest. Not an event: no timeline or search shows it.
 */
export interface UsageRow {
  session_id: string;
  provider: Provider;
  source_file: string;
  source_line: number;
  /** Which of the line's calls (a line may record several: Claude's advisor iterations). */
  seq: number;
  timestamp: string | null;
  model: string | null;
  call: string | null;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cache_write_1h: number;
  reasoning: number;
  /** The cost the agent recorded, in US dollars. */
  cost: number | null;
  sidechain: boolean;
  fast: boolean;
}

/** A call as the usage report reads it: without where it was read (rows come in the order they were read). */
export type UsageCall = Omit<UsageRow, "source_file" | "source_line" | "seq">;

/** A line that could not be used, or was used only in part. Nothing is skipped without one of these. */
export interface Problem {
  source_file: string;
  source_line: number;
  reason: string;
  /** The first bytes of the line, for debugging. */
  excerpt: string;
}

export function sessionNode(sessionId: string): string {
  return `session:${sessionId}`;
}

export function entityId(kind: EntityKind, key: string): string {
  return `${kind}:${key}`;
}
