/**
 * What the normalizer hands on and what it carries between batches: the topology of one batch, and its state, plain
 * JSON so an index can resume a transcript where the last run stopped.
 */
import type { CheckFamily } from "./command.ts";
import { type DecisionState, initialDecisionState } from "./decisions.ts";
import type { FileAction } from "./file-actions.ts";
import { initialTurnTracker, type TurnTracker } from "./outcomes.ts";
import type { TitleSource } from "./session-title.ts";
import type { Edge, Entity, Provider, SessionEvent, SessionInfo, UsageRow } from "./types.ts";

export interface TopologyBatch {
  sessions: SessionInfo[];
  /** Events in ordinal order. An event id may repeat: a later copy supersedes an earlier one (upsert). */
  events: SessionEvent[];
  edges: Edge[];
  entities: Entity[];
  /** Model calls' token usage read in this batch. */
  usage: UsageRow[];
}

export interface PendingCall {
  id: string;
  name: string;
  turn: number;
  command: string | null;
  canonical: string | null;
  family: CheckFamily | null;
  /** The exit status does not speak for the check (output piped through a filter, a later `; echo`). */
  masked?: boolean;
  /** The mask is only `| tail` after a package script (see `CommandInfo.scriptTail`). */
  scriptTail?: boolean;
  files: Array<FileAction & { key: string; display: string; toKey?: string }>;
  /** Content written to a plan or decision file, for decision extraction once the write succeeds. */
  planText: string | null;
  userInitiated: boolean;
  /** A file read: its output loses the line-number gutter. */
  read?: boolean;
}

export interface OpenRecord {
  key: string;
  id: string;
  ordinal: number;
  turn: number;
  /** Where the event started; an update re-states it but does not move it. */
  line: number;
  ts: string | null;
  parent: string | null;
  derived: Record<string, number>;
  /** An assistant message's text has been read for decisions (and, with an id, it restated that decision). */
  decisionsRead?: { restates: string | null };
}

export interface NormalizerState {
  provider: Provider;
  sourceFile: string;
  session: SessionInfo | null;
  ordinal: number;
  turn: number;
  lastPrimary: string | null;
  lastAssistant: { id: string; turn: number } | null;
  calls: Record<string, PendingCall>;
  /** The last few records that a later `update` record may re-state. */
  open: OpenRecord[];
  /** What decision rules read across messages (the agent's last question, recent decisions). */
  decisions?: DecisionState;
  /** The open request and how its work has gone so far, for its outcome. */
  outcomes?: TurnTracker;
  /** Where the session's title came from (see session-title.ts). */
  titleFrom?: TitleSource;
}

export function initialNormalizerState(provider: Provider, sourceFile: string): NormalizerState {
  return {
    provider,
    sourceFile,
    session: null,
    ordinal: 0,
    turn: 0,
    lastPrimary: null,
    lastAssistant: null,
    calls: {},
    open: [],
    decisions: initialDecisionState(),
    outcomes: initialTurnTracker(),
  };
}
