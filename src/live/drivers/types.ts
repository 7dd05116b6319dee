/**
 * The seam between the controller and an agent SDK. A driver opens sessions; a session runs one turn at a
 * time and reports what happens through the turn context. The controller stamps, orders, buffers and fans
 * out; drivers never see viewports, sequence numbers or epochs.
 */
import type { PromptOutcome, PromptRequest } from "../prompt-registry.ts";
import type { DriverName, TurnStatus, Usage } from "../protocol.ts";

export type { PromptOutcome, PromptRequest } from "../prompt-registry.ts";

/** What a driver reports during a turn. The controller adds offsets, durations and missing ends. */
export type DriverEvent =
  | { type: "response_start"; messageId: string }
  | { type: "response_chunk"; messageId: string; delta: string }
  | { type: "response_end"; messageId: string; status?: TurnStatus; usage?: Usage }
  | { type: "tool_start"; toolUseId: string; toolName: string; parentToolUseId?: string }
  | { type: "tool_input"; toolUseId: string; input: unknown }
  | { type: "tool_end"; toolUseId: string; output: unknown; isError?: boolean }
  | { type: "error"; code: string; message: string; fatal?: boolean };

export interface TurnContext {
  readonly turnId: string;
  /** Aborted when the turn is interrupted or the session cleared. */
  readonly signal: AbortSignal;
  /** Synchronous; events after the turn has ended (or the epoch changed) are dropped by the controller. */
  emit(event: DriverEvent): void;
  /** Shows a prompt to every viewport and waits for the first answer, a cancel, or (if configured) a timeout. */
  requestPrompt(request: PromptRequest, options?: { signal?: AbortSignal }): Promise<PromptOutcome>;
}

export interface TurnResult {
  status: TurnStatus;
  usage?: Usage;
}

export interface DriverSession {
  readonly sessionId: string;
  readonly model: string | null;
  /** True once the session died on its own (e.g. the agent process exited); the controller then reopens it. */
  readonly ended?: boolean;
  /** Runs one user turn to its end. Rejecting counts as a failed turn; the error is shown to viewports. */
  runTurn(text: string, context: TurnContext): Promise<TurnResult>;
  /** Stops the running turn and keeps the session. Resolves once the SDK has taken the request. */
  interrupt(): Promise<void>;
  /** Ends the session and frees its resources. Idempotent. */
  close(): Promise<void>;
}

export interface OpenSessionOptions {
  /** Resume this session id instead of starting a new one. */
  resumeSessionId?: string;
}

export interface LiveDriver {
  readonly name: DriverName;
  readonly cwd: string;
  open(options?: OpenSessionOptions): Promise<DriverSession>;
}

/**
 * A driver failure with advice for the person at the page. `message` says what went wrong in the server's
 * terms; `hint` says what to do, in words that make sense in a browser (which command to restart `cairn serve`
 * with, which setting to add), never a TUI command or a path on the server alone.
 */
export class DriverError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "DriverError";
    this.hint = options.hint;
  }
}
