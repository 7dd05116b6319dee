/**
 * The live session controller: owns one agent session at a time and lets any number of viewports watch it.
 *
 * - Every event is stamped into an envelope `{v, epoch, seq, ts, event}` with a dense `seq` per epoch,
 *   applied to the snapshot view, kept in the replay ring and handed to every subscriber, in that order and in
 *   one synchronous step, so a subscriber registered between two events sees exactly the events after it.
 * - The epoch changes when the session is cleared; every late callback of an old turn or session is dropped
 *   by comparing its turn object or generation with the current one.
 * - Refusals and start-up failures are thrown to the caller (as `LiveError`), not only emitted: the caller may
 *   be the only one listening.
 */
import { randomUUID } from "node:crypto";
import type { DriverEvent, DriverSession, LiveDriver, TurnContext, TurnResult } from "./drivers/types.ts";
import { errorMessage, LiveError } from "./errors.ts";
import {
  createPromptRegistry,
  type PromptOutcome,
  type PromptRegistry,
  type PromptRequest,
} from "./prompt-registry.ts";
import {
  type ClientCommand,
  type CommandReply,
  type DriverName,
  type Envelope,
  type LiveView,
  type PendingPrompt,
  PROTOCOL_VERSION,
  type PromptResponse,
  type SessionEvent,
  type SnapshotFrame,
  type Usage,
} from "./protocol.ts";
import { createReplayRing, type ReplayRing, type ReplayRingOptions } from "./replay-ring.ts";
import { createReplyCache, type ReplyCache } from "./reply-cache.ts";
import type { LiveSink, OutFrame } from "./sink.ts";
import { applyEvent, createEmptyView, DEFAULT_VIEW_LIMITS, type ViewLimits } from "./view-state.ts";

export interface LiveControllerOptions {
  driver: LiveDriver;
  ring?: Partial<ReplayRingOptions>;
  view?: Partial<ViewLimits>;
  /** Milliseconds a prompt waits before it expires (and the tool is denied). Null, the default, waits forever. */
  promptTimeoutMs?: number | null;
  /** How long interrupt and clear wait for the driver to end its turn before ending it themselves. */
  drainTimeoutMs?: number;
  replies?: { maxEntries?: number; ttlMs?: number };
  tombstones?: { maxEntries?: number; ttlMs?: number };
  now?: () => number;
  newId?: () => string;
  /** Diagnostics that have no viewport to go to (a sink that threw, a close that failed). */
  log?: (message: string) => void;
}

export const SESSION_STATUSES = ["idle", "starting", "ready", "streaming", "clearing", "closed"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export interface SessionState {
  epoch: string;
  status: SessionStatus;
  driver: DriverName;
  cwd: string;
  sessionId: string | null;
  model: string | null;
  turnId: string | null;
  isStreaming: boolean;
  headSeq: number;
  oldestSeq: number;
  subscribers: number;
  openPrompts: number;
  usage: Usage;
}

export interface SubscribeOptions {
  viewportId: string;
  afterSeq?: number;
  epoch?: string;
}

export interface Subscription {
  /** `replay`: the ring covered the gap and the missing envelopes were sent; `snapshot`: a snapshot was sent. */
  mode: "replay" | "snapshot";
  unsubscribe(): void;
}

export interface SendMessageInput {
  text: string;
  clientMsgId?: string;
  expectEpoch?: string;
}

export interface SendMessageResult {
  epoch: string;
  turnId: string;
  /** Settles when the turn has ended (never rejects). */
  done: Promise<TurnResult>;
}

export interface StartSessionResult {
  epoch: string;
  sessionId: string;
  turnId?: string;
}

export interface RespondOptions {
  viewportId: string;
  clientMsgId?: string;
  expectEpoch?: string;
}

export interface LiveController {
  readonly epoch: string;
  /** Clears any current session, then opens a new one (and sends `prompt` if given). */
  startSession(options?: { prompt?: string; clientMsgId?: string }): Promise<StartSessionResult>;
  /** Clears any current session, then reopens `sessionId` through the driver. */
  resumeSession(options: { sessionId: string; prompt?: string; clientMsgId?: string }): Promise<StartSessionResult>;
  /** Starts a turn, opening a session first if there is none. Resolves once the turn has started. */
  sendMessage(input: SendMessageInput): Promise<SendMessageResult>;
  /** Cancels open prompts, then stops the running turn and keeps the session. */
  interrupt(): Promise<{ interrupted: boolean }>;
  /** Cancels prompts, stops the turn, emits `session_cleared` (the epoch's last event), starts a new epoch. */
  clearSession(reason?: string): Promise<{ epoch: string }>;
  /** Synchronous: catch-up and registration happen in the same tick, so nothing falls in between. */
  subscribe(options: SubscribeOptions, sink: LiveSink): Subscription;
  respondToPrompt(promptId: string, response: PromptResponse, options: RespondOptions): CommandReply;
  /** Runs a viewport command with idempotent retries per `clientMsgId`; never rejects. */
  execute(command: Exclude<ClientCommand, { type: "subscribe" }>, viewportId: string): Promise<CommandReply>;
  getPendingPrompts(): PendingPrompt[];
  getState(): SessionState;
  isStreaming(): boolean;
  getSnapshot(): SnapshotFrame;
  /** Clears the session and closes every subscriber. */
  dispose(): Promise<void>;
}

interface ActiveTurn {
  turnId: string;
  generation: number;
  abort: AbortController;
  ended: boolean;
  interrupted: boolean;
  messages: Map<string, { startedAt: number; length: number }>;
  /** Settles when the controller ends the turn, whether or not the driver ever returns. */
  done: Promise<TurnResult>;
  resolveDone: (result: TurnResult) => void;
}

/** The advice a driver attached to its error for the person at the page (see `DriverError`). */
function hintOf(error: unknown): string | undefined {
  const hint = (error as { hint?: unknown } | null)?.hint;
  return typeof hint === "string" && hint !== "" ? hint : undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createLiveController(options: LiveControllerOptions): LiveController {
  const driver = options.driver;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomUUID;
  const log = options.log ?? (() => {});
  const drainMs = options.drainTimeoutMs ?? 3_000;
  const viewLimits: ViewLimits = { ...DEFAULT_VIEW_LIMITS, ...options.view };
  const ring: ReplayRing = createReplayRing(options.ring);
  const replies: ReplyCache = createReplyCache({
    maxEntries: options.replies?.maxEntries ?? 2_000,
    ttlMs: options.replies?.ttlMs ?? 10 * 60_000,
    now,
  });
  const subscribers = new Map<LiveSink, string>();

  let epoch = newId();
  let seq = 0;
  let view: LiveView = createEmptyView();
  /** Bumped whenever a clear starts; async work compares it to notice that its session went away. */
  let generation = 0;
  let session: DriverSession | null = null;
  let opening: Promise<DriverSession> | null = null;
  let sending = false;
  let turn: ActiveTurn | null = null;
  let clearing: Promise<{ epoch: string }> | null = null;
  let disposed = false;

  /** Hands a frame to one sink; a sink that throws is dropped and closed. Returns false if it was dropped. */
  const sendTo = (sink: LiveSink, out: OutFrame): boolean => {
    try {
      sink.send(out);
      return true;
    } catch (error) {
      subscribers.delete(sink);
      log(`live: dropped a subscriber whose sink threw: ${errorMessage(error)}`);
      try {
        sink.close(1011, "sink failed");
      } catch {}
      return false;
    }
  };

  const deliver = (out: OutFrame): void => {
    for (const sink of [...subscribers.keys()]) sendTo(sink, out);
  };

  const emit = (event: SessionEvent, turnId?: string): void => {
    seq++;
    const envelope: Envelope = { kind: "event", v: PROTOCOL_VERSION, epoch, seq, ts: now(), event };
    if (turnId) envelope.turnId = turnId;
    const json = JSON.stringify(envelope);
    applyEvent(view, event, turnId, viewLimits);
    ring.push({ envelope, json });
    deliver({ frame: envelope, json });
  };

  const prompts: PromptRegistry = createPromptRegistry({
    timeoutMs: options.promptTimeoutMs ?? null,
    tombstoneLimit: options.tombstones?.maxEntries ?? 1_000,
    tombstoneTtlMs: options.tombstones?.ttlMs ?? 10 * 60_000,
    now,
    newId,
    emit,
  });

  const snapshot = (): SnapshotFrame => ({
    kind: "snapshot",
    v: PROTOCOL_VERSION,
    epoch,
    seq,
    // A deep copy: the live view keeps changing after the frame is handed to a sink that may queue it.
    view: structuredClone(view),
  });

  const isCurrent = (t: ActiveTurn): boolean => !t.ended && turn === t && t.generation === generation;

  const emitDriverEvent = (t: ActiveTurn, e: DriverEvent): void => {
    if (!isCurrent(t)) return;
    switch (e.type) {
      case "response_start":
        if (t.messages.has(e.messageId)) return;
        t.messages.set(e.messageId, { startedAt: now(), length: 0 });
        emit({ type: "response_start", messageId: e.messageId }, t.turnId);
        return;
      case "response_chunk": {
        if (e.delta.length === 0) return;
        let message = t.messages.get(e.messageId);
        if (!message) {
          message = { startedAt: now(), length: 0 };
          t.messages.set(e.messageId, message);
          emit({ type: "response_start", messageId: e.messageId }, t.turnId);
        }
        const offset = message.length;
        message.length += e.delta.length;
        emit({ type: "response_chunk", messageId: e.messageId, delta: e.delta, offset }, t.turnId);
        return;
      }
      case "response_end": {
        const message = t.messages.get(e.messageId);
        if (!message) return;
        t.messages.delete(e.messageId);
        const event: SessionEvent = {
          type: "response_end",
          messageId: e.messageId,
          durationMs: now() - message.startedAt,
          status: e.status ?? "completed",
        };
        if (e.usage) event.usage = e.usage;
        emit(event, t.turnId);
        return;
      }
      case "tool_start": {
        const event: SessionEvent = { type: "tool_start", toolUseId: e.toolUseId, toolName: e.toolName };
        if (e.parentToolUseId) event.parentToolUseId = e.parentToolUseId;
        emit(event, t.turnId);
        return;
      }
      case "tool_input":
        emit({ type: "tool_input", toolUseId: e.toolUseId, input: e.input ?? null }, t.turnId);
        return;
      case "tool_end": {
        const event: SessionEvent = { type: "tool_end", toolUseId: e.toolUseId, output: e.output ?? null };
        if (e.isError) event.isError = true;
        emit(event, t.turnId);
        return;
      }
      case "error":
        emit({ type: "error", code: e.code, message: e.message, fatal: e.fatal === true }, t.turnId);
        return;
    }
  };

  /** Ends a turn once: closes its messages, cancels its prompts, emits `turn_ended`. Guarded by identity. */
  const finishTurn = (t: ActiveTurn, result: TurnResult): void => {
    if (!isCurrent(t)) return;
    const status = t.interrupted && result.status === "completed" ? "interrupted" : result.status;
    for (const [messageId, message] of t.messages) {
      emit({ type: "response_end", messageId, durationMs: now() - message.startedAt, status }, t.turnId);
    }
    t.messages.clear();
    prompts.cancelAll("cancelled", (p) => p.turnId === t.turnId);
    t.ended = true;
    turn = null;
    const event: SessionEvent = { type: "turn_ended", turnId: t.turnId, status };
    if (result.usage) event.usage = result.usage;
    emit(event, t.turnId);
    t.resolveDone(result.usage ? { status, usage: result.usage } : { status });
  };

  const ensureSession = async (resumeSessionId?: string): Promise<DriverSession> => {
    if (session?.ended) {
      // The agent process went away between turns: resume the same conversation in a new one.
      resumeSessionId ??= session.sessionId;
      session = null;
    }
    if (session) return session;
    if (opening) return opening;
    const gen = generation;
    opening = driver.open(resumeSessionId ? { resumeSessionId } : {});
    let opened: DriverSession;
    try {
      opened = await opening;
    } catch (error) {
      const message = `could not start the ${driver.name} session: ${errorMessage(error)}`;
      if (gen === generation) {
        opening = null;
        // Every viewport sees why, not only the one whose command started it.
        const failed: SessionEvent = { type: "error", code: "driver_failed", message, fatal: true };
        const hint = hintOf(error);
        if (hint) failed.hint = hint;
        emit(failed);
      }
      throw new LiveError("failed", message, { cause: error });
    }
    if (gen !== generation || disposed) {
      void opened
        .close()
        .catch((error: unknown) => log(`live: closing a stale session failed: ${errorMessage(error)}`));
      throw new LiveError("stale_epoch", "the session was cleared while it was starting");
    }
    opening = null;
    session = opened;
    emit({
      type: "session_started",
      sessionId: opened.sessionId,
      model: opened.model,
      driver: driver.name,
      cwd: driver.cwd,
    });
    return opened;
  };

  const startTurn = (s: DriverSession, text: string, clientMsgId: string | undefined): SendMessageResult => {
    let resolveDone: (result: TurnResult) => void = () => {};
    const done = new Promise<TurnResult>((resolve) => {
      resolveDone = resolve;
    });
    const t: ActiveTurn = {
      turnId: newId(),
      generation,
      abort: new AbortController(),
      ended: false,
      interrupted: false,
      messages: new Map(),
      done,
      resolveDone,
    };
    turn = t;
    const started: SessionEvent = { type: "turn_started", turnId: t.turnId, text };
    if (clientMsgId) started.clientMsgId = clientMsgId;
    emit(started, t.turnId);

    const context: TurnContext = {
      turnId: t.turnId,
      signal: t.abort.signal,
      emit: (e) => emitDriverEvent(t, e),
      requestPrompt: (request: PromptRequest, o?: { signal?: AbortSignal }): Promise<PromptOutcome> => {
        if (!isCurrent(t) || t.interrupted) return Promise.resolve({ resolution: "cancelled" });
        const signal = o?.signal ? AbortSignal.any([o.signal, t.abort.signal]) : t.abort.signal;
        return prompts.open(t.turnId, request, signal);
      },
    };
    void (async () => {
      let result: TurnResult;
      try {
        result = await s.runTurn(text, context);
      } catch (error) {
        if (isCurrent(t) && !t.interrupted) {
          emit({ type: "error", code: "driver_error", message: errorMessage(error), fatal: false }, t.turnId);
        }
        result = { status: t.interrupted ? "interrupted" : "failed" };
      }
      finishTurn(t, result);
    })();
    return { epoch, turnId: t.turnId, done: t.done };
  };

  const sendMessage = async (input: SendMessageInput): Promise<SendMessageResult> => {
    if (disposed) throw new LiveError("failed", "the controller has been disposed");
    if (input.expectEpoch !== undefined && input.expectEpoch !== epoch) {
      throw new LiveError("stale_epoch", "the session changed since this message was written");
    }
    if (clearing) throw new LiveError("busy", "the session is being cleared");
    if (turn || sending) throw new LiveError("busy", "a turn is already running; interrupt it or wait");
    const gen = generation;
    sending = true;
    let s: DriverSession;
    try {
      s = await ensureSession();
    } finally {
      sending = false;
    }
    if (gen !== generation) throw new LiveError("stale_epoch", "the session was cleared before the turn started");
    return startTurn(s, input.text, input.clientMsgId);
  };

  const interruptTurn = async (t: ActiveTurn): Promise<void> => {
    t.interrupted = true;
    // Prompts first: their `prompt_resolved` must precede the turn's end on every viewport.
    prompts.cancelAll("cancelled", (p) => p.turnId === t.turnId);
    t.abort.abort();
    const s = session;
    if (s) {
      try {
        await withTimeout(s.interrupt(), drainMs);
      } catch (error) {
        log(`live: driver interrupt failed: ${errorMessage(error)}`);
      }
    }
    await withTimeout(t.done, drainMs);
    finishTurn(t, { status: "interrupted" });
  };

  const clearSession = (reason = "cleared", byViewport?: string): Promise<{ epoch: string }> => {
    if (clearing) return clearing;
    clearing = (async () => {
      generation++;
      const t = turn;
      const s = session;
      const endedSessionId = s?.sessionId ?? view.sessionId;
      // The turn keeps its old generation; let it finish this epoch's bookkeeping before the epoch ends.
      if (t) t.generation = generation;
      prompts.cancelAll("cancelled");
      if (t) await interruptTurn(t);
      const cleared: SessionEvent = { type: "session_cleared", reason };
      if (endedSessionId) cleared.sessionId = endedSessionId;
      if (byViewport) cleared.byViewport = byViewport;
      emit(cleared);
      epoch = newId();
      seq = 0;
      ring.clear(1);
      view = createEmptyView();
      session = null;
      opening = null;
      turn = null;
      const frame = snapshot();
      deliver({ frame, json: JSON.stringify(frame) });
      if (s) {
        try {
          await withTimeout(s.close(), drainMs);
        } catch (error) {
          log(`live: closing the session failed: ${errorMessage(error)}`);
        }
      }
      return { epoch };
    })().finally(() => {
      clearing = null;
    });
    return clearing;
  };

  const hasSession = (): boolean => session !== null || opening !== null || turn !== null || sending;

  const startSession = async (o: {
    prompt?: string;
    clientMsgId?: string;
    resumeSessionId?: string;
    byViewport?: string;
  }): Promise<StartSessionResult> => {
    if (disposed) throw new LiveError("failed", "the controller has been disposed");
    if (clearing) await clearing;
    if (hasSession() || view.transcript.length > 0) {
      await clearSession(o.resumeSessionId ? "resume_session" : "new_session", o.byViewport);
    }
    const s = await ensureSession(o.resumeSessionId);
    // A driver may resolve a unique prefix; anything else it opened is not the session that was asked for.
    if (o.resumeSessionId && !s.sessionId.startsWith(o.resumeSessionId)) {
      await clearSession("resume_failed");
      throw new LiveError("failed", `resumed session id ${s.sessionId} does not match ${o.resumeSessionId}`);
    }
    if (o.prompt === undefined) return { epoch, sessionId: s.sessionId };
    const started = await sendMessage({ text: o.prompt, ...(o.clientMsgId ? { clientMsgId: o.clientMsgId } : {}) });
    return { epoch: started.epoch, sessionId: s.sessionId, turnId: started.turnId };
  };

  const toReply = async (clientMsgId: string, run: () => Promise<unknown>): Promise<CommandReply> => {
    try {
      return { kind: "ack", clientMsgId, result: await run() };
    } catch (error) {
      if (error instanceof LiveError) return { kind: "nack", clientMsgId, code: error.code, message: error.message };
      return { kind: "nack", clientMsgId, code: "failed", message: errorMessage(error) };
    }
  };

  const respondToPrompt = (promptId: string, response: PromptResponse, o: RespondOptions): CommandReply => {
    const clientMsgId = o.clientMsgId ?? newId();
    const cached = replies.get(clientMsgId);
    if (cached?.settled && cached.type === "respond_prompt") return cached.settled;
    if (cached) {
      return { kind: "nack", clientMsgId, code: "invalid", message: "clientMsgId already used for another command" };
    }
    let reply: CommandReply;
    if (o.expectEpoch !== undefined && o.expectEpoch !== epoch) {
      reply = { kind: "nack", clientMsgId, code: "stale_epoch", message: "the prompt belongs to a cleared session" };
    } else {
      const answer = prompts.answer(promptId, response, o.viewportId);
      reply = answer.ok
        ? { kind: "ack", clientMsgId, result: { promptId, resolution: "answered" } }
        : {
            kind: "nack",
            clientMsgId,
            code: answer.code,
            message: answer.message,
            ...(answer.resolution ? { resolution: answer.resolution } : {}),
            ...(answer.byViewport ? { byViewport: answer.byViewport } : {}),
          };
    }
    replies.set(clientMsgId, "respond_prompt", reply);
    return reply;
  };

  const interrupt = async (): Promise<{ interrupted: boolean }> => {
    const t = turn;
    if (!t) return { interrupted: false };
    await interruptTurn(t);
    return { interrupted: true };
  };

  const controller: LiveController = {
    get epoch() {
      return epoch;
    },
    startSession: (o = {}) => startSession(o),
    resumeSession: (o) =>
      startSession({
        resumeSessionId: o.sessionId,
        ...(o.prompt !== undefined ? { prompt: o.prompt } : {}),
        ...(o.clientMsgId ? { clientMsgId: o.clientMsgId } : {}),
      }),
    sendMessage,
    interrupt,
    clearSession,
    subscribe(o, sink) {
      ring.evictExpired(now());
      let mode: Subscription["mode"];
      let ok = true;
      if (o.epoch === epoch && o.afterSeq !== undefined && ring.covers(o.afterSeq)) {
        mode = "replay";
        for (const entry of ring.after(o.afterSeq)) {
          ok = sendTo(sink, { frame: entry.envelope, json: entry.json });
          if (!ok) break;
        }
      } else {
        mode = "snapshot";
        const frame = snapshot();
        ok = sendTo(sink, { frame, json: JSON.stringify(frame) });
      }
      if (ok) subscribers.set(sink, o.viewportId);
      return { mode, unsubscribe: () => void subscribers.delete(sink) };
    },
    respondToPrompt,
    execute(command, viewportId) {
      if (command.type === "respond_prompt") {
        return Promise.resolve(
          respondToPrompt(command.promptId, command.response, {
            viewportId,
            clientMsgId: command.clientMsgId,
            ...(command.expectEpoch !== undefined ? { expectEpoch: command.expectEpoch } : {}),
          }),
        );
      }
      const cached = replies.get(command.clientMsgId);
      if (cached) {
        if (cached.type === command.type) return cached.reply;
        return Promise.resolve({
          kind: "nack",
          clientMsgId: command.clientMsgId,
          code: "invalid",
          message: "clientMsgId already used for another command",
        });
      }
      const id = command.clientMsgId;
      let reply: Promise<CommandReply>;
      switch (command.type) {
        case "send_message":
          reply = toReply(id, async () => {
            const r = await sendMessage({
              text: command.text,
              clientMsgId: id,
              ...(command.expectEpoch !== undefined ? { expectEpoch: command.expectEpoch } : {}),
            });
            return { epoch: r.epoch, turnId: r.turnId };
          });
          break;
        case "interrupt":
          reply = toReply(id, async () => {
            if (command.expectEpoch !== undefined && command.expectEpoch !== epoch) {
              throw new LiveError("stale_epoch", "the session changed since this interrupt was sent");
            }
            return interrupt();
          });
          break;
        case "clear_session":
          reply = toReply(id, async () => {
            if (command.expectEpoch !== undefined && command.expectEpoch !== epoch) {
              throw new LiveError("stale_epoch", "the session was already cleared");
            }
            return clearSession(command.reason ?? "cleared by a viewport", viewportId);
          });
          break;
        case "new_session":
          reply = toReply(id, () =>
            startSession({
              byViewport: viewportId,
              ...(command.prompt !== undefined ? { prompt: command.prompt, clientMsgId: id } : {}),
            }),
          );
          break;
        case "resume_session":
          reply = toReply(id, () =>
            startSession({
              byViewport: viewportId,
              resumeSessionId: command.sessionId,
              ...(command.prompt !== undefined ? { prompt: command.prompt, clientMsgId: id } : {}),
            }),
          );
          break;
      }
      replies.set(id, command.type, reply);
      return reply;
    },
    getPendingPrompts: () => prompts.list(),
    getState() {
      let status: SessionStatus = "idle";
      if (disposed) status = "closed";
      else if (clearing) status = "clearing";
      else if (turn) status = "streaming";
      else if (opening || sending) status = "starting";
      else if (session) status = "ready";
      return {
        epoch,
        status,
        driver: driver.name,
        cwd: driver.cwd,
        sessionId: session?.sessionId ?? null,
        model: session?.model ?? null,
        turnId: turn?.turnId ?? null,
        isStreaming: turn !== null,
        headSeq: seq,
        oldestSeq: ring.oldestSeq,
        subscribers: subscribers.size,
        openPrompts: prompts.list().length,
        usage: { ...view.usage },
      };
    },
    isStreaming: () => turn !== null,
    getSnapshot: snapshot,
    async dispose() {
      if (disposed) return;
      if (hasSession() || clearing) await clearSession("shutdown");
      disposed = true;
      for (const sink of subscribers.keys()) {
        try {
          sink.close(1001, "server shutting down");
        } catch {}
      }
      subscribers.clear();
    },
  };
  return controller;
}
