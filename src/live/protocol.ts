/**
 * The live protocol's types: what the controller emits, what a viewport receives, what it may send back.
 * docs/live-protocol.md describes every shape; this file is the source of truth for the field names.
 *
 * Nothing here touches Node, the DOM or zod at run time, so the web page compiles against the same file.
 */

export const PROTOCOL_VERSION = 1;

export const PROMPT_KINDS = ["tool_permission", "ask_user_question"] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

export const PROMPT_RESOLUTIONS = ["answered", "cancelled", "expired", "superseded"] as const;
export type PromptResolution = (typeof PROMPT_RESOLUTIONS)[number];

export const TURN_STATUSES = ["completed", "interrupted", "failed"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

export const DRIVER_NAMES = ["pi", "scripted", "claude"] as const;
export type DriverName = (typeof DRIVER_NAMES)[number];

/** Why a command was refused. Sent only to the viewport that sent the command (never broadcast). */
export const NACK_CODES = [
  "busy",
  "stale_epoch",
  "not_found",
  "already_resolved",
  "unauthorized",
  "invalid",
  "overloaded",
  "rate_limited",
  "failed",
] as const;
export type NackCode = (typeof NACK_CODES)[number];

export interface QuestionOption {
  label: string;
  description?: string;
}

/** One question of an `ask_user_question` prompt (the shape Claude's AskUserQuestion tool uses). */
export interface Question {
  question: string;
  header?: string;
  options: QuestionOption[];
  multiSelect?: boolean;
}

export interface PendingPrompt {
  /** Server-made id; never the SDK's tool-use id, which collides across subagents. */
  id: string;
  kind: PromptKind;
  turnId: string;
  toolName: string;
  input: unknown;
  toolUseId?: string;
  agentId?: string;
  questions?: Question[];
  title?: string;
  /** The viewport must open the prompt on its decline option and offer no one-key approve. */
  defaultToNo?: boolean;
  createdAt: number;
  expiresAt?: number;
}

export type PromptResponse =
  | { kind: "tool_permission"; allow: boolean; message?: string }
  | { kind: "ask_user_question"; answers: Record<string, string> };

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  costUsd?: number;
}

export type SessionEvent =
  | { type: "session_started"; sessionId: string; model: string | null; driver: DriverName; cwd: string }
  | { type: "turn_started"; turnId: string; text: string; clientMsgId?: string }
  | { type: "response_start"; messageId: string }
  /** `offset` is the length of the message's text before `delta`, so appending is idempotent. */
  | { type: "response_chunk"; messageId: string; delta: string; offset: number }
  | { type: "response_end"; messageId: string; durationMs: number; status: TurnStatus; usage?: Usage }
  | { type: "tool_start"; toolUseId: string; toolName: string; parentToolUseId?: string }
  | { type: "tool_input"; toolUseId: string; input: unknown }
  | { type: "tool_end"; toolUseId: string; output: unknown; isError?: boolean }
  | { type: "prompt_pending"; prompt: PendingPrompt }
  | {
      type: "prompt_resolved";
      promptId: string;
      resolution: PromptResolution;
      byViewport?: string;
      decision?: "allow" | "deny";
    }
  /** `hint` says what the person at the page can do about it (e.g. how to give `cairn serve` a model). */
  | { type: "error"; code: string; message: string; fatal: boolean; hint?: string }
  | { type: "turn_ended"; turnId: string; status: TurnStatus; usage?: Usage }
  /**
   * The last event of an epoch. `reason` is `new_session`, `resume_session` or what the clearing viewport sent;
   * `sessionId` names the session that ended (its transcript stays in history), `byViewport` who cleared it.
   */
  | { type: "session_cleared"; reason: string; sessionId?: string; byViewport?: string };

export type SessionEventType = SessionEvent["type"];

/** Every event travels in an envelope. `seq` is dense per epoch: 1, 2, 3, … */
export interface Envelope {
  kind: "event";
  v: typeof PROTOCOL_VERSION;
  epoch: string;
  seq: number;
  ts: number;
  turnId?: string;
  /**
   * Set only when a slow viewport's queue merged adjacent chunks: the envelope then stands for seqs
   * `firstSeq..seq`. Clients treat `firstSeq` as the envelope's start when looking for gaps.
   */
  firstSeq?: number;
  event: SessionEvent;
}

export type TranscriptItem =
  | { kind: "user"; turnId: string; text: string }
  | {
      kind: "assistant";
      messageId: string;
      turnId: string | null;
      text: string;
      status: "streaming" | TurnStatus;
    }
  | {
      kind: "tool";
      toolUseId: string;
      turnId: string | null;
      toolName: string;
      parentToolUseId?: string;
      input?: unknown;
      output?: unknown;
      isError?: boolean;
      status: "running" | "done" | "error";
    }
  | { kind: "notice"; level: "error" | "info"; text: string; code?: string; hint?: string };

/** What a viewport shows, rebuilt by the same reducer on the server (for snapshots) and in the page. */
export interface LiveView {
  sessionId: string | null;
  driver: DriverName | null;
  model: string | null;
  cwd: string | null;
  /** The running turn, or null when idle. */
  turnId: string | null;
  usage: Usage;
  transcript: TranscriptItem[];
  /** Items dropped from the front of `transcript` to keep it bounded. */
  droppedItems: number;
  openPrompts: PendingPrompt[];
}

/** Sent instead of replay when the ring cannot cover a viewport's gap. Carries open prompts only. */
export interface SnapshotFrame {
  kind: "snapshot";
  v: typeof PROTOCOL_VERSION;
  epoch: string;
  /** Watermark: the view includes every event up to and including this seq. */
  seq: number;
  view: LiveView;
}

export interface HelloFrame {
  kind: "hello";
  v: typeof PROTOCOL_VERSION;
  viewportId: string;
  epoch: string;
  headSeq: number;
  oldestSeq: number;
}

export interface AckFrame {
  kind: "ack";
  clientMsgId: string;
  result: unknown;
}

export interface NackFrame {
  kind: "nack";
  clientMsgId: string | null;
  code: NackCode;
  message: string;
  resolution?: PromptResolution;
  byViewport?: string;
}

export type CommandReply = AckFrame | NackFrame;

/** The answer to a viewport's `ping`: proof that the connection is alive both ways. */
export interface PongFrame {
  kind: "pong";
  t?: number;
}

export type ServerFrame = Envelope | SnapshotFrame | HelloFrame | AckFrame | NackFrame | PongFrame;

/**
 * A viewport's heartbeat. Not a command: no `clientMsgId`, no reply cache, answered at once with `pong`.
 * Browsers cannot see WebSocket pings, so the page sends these to notice a dead connection itself.
 */
export interface PingMessage {
  type: "ping";
  t?: number;
}

/** Client → server commands (validated by `commands.ts`). */
export type ClientCommand =
  | { type: "subscribe"; clientMsgId: string; afterSeq?: number; epoch?: string }
  | { type: "send_message"; clientMsgId: string; text: string; expectEpoch?: string }
  | {
      type: "respond_prompt";
      clientMsgId: string;
      promptId: string;
      response: PromptResponse;
      expectEpoch?: string;
    }
  | { type: "interrupt"; clientMsgId: string; expectEpoch?: string }
  | { type: "clear_session"; clientMsgId: string; expectEpoch?: string; reason?: string }
  | { type: "new_session"; clientMsgId: string; prompt?: string }
  /** Reopens a session the driver saved earlier (e.g. a pi session from history) and makes it the live one. */
  | { type: "resume_session"; clientMsgId: string; sessionId: string; prompt?: string };

export type ClientCommandType = ClientCommand["type"];
