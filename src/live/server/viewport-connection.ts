/**
 * One WebSocket viewport: validates and rate-limits what it sends, subscribes it to the controller through a
 * back-pressured sink, and answers each command with a unicast ack or nack. Holds no session state of its own:
 * closing the tab only unsubscribes.
 */
import type { WebSocket } from "ws";
import { parseClientMessage } from "../commands.ts";
import type { LiveController } from "../controller.ts";
import { type CommandReply, type HelloFrame, type NackCode, PROTOCOL_VERSION, type ServerFrame } from "../protocol.ts";
import { createQueuedSink, type OutFrame, type QueuedSinkOptions } from "../sink.ts";
import { createRateLimiter, type RateLimitOptions } from "./rate-limit.ts";

export interface ViewportConnectionOptions {
  socket: WebSocket;
  controller: LiveController;
  viewportId: string;
  rateLimit: Omit<RateLimitOptions, "now">;
  /** Refused commands tolerated before the connection is closed with 1008. */
  maxRateStrikes: number;
  sink?: Partial<QueuedSinkOptions>;
  now: () => number;
}

export interface ViewportConnection {
  readonly viewportId: string;
  close(code: number, reason: string): void;
}

export function attachViewport(options: ViewportConnectionOptions): ViewportConnection {
  const { socket, controller, viewportId } = options;
  // Frames written in one event-loop turn (a burst of chunks under load) leave as one WebSocket message, a JSON
  // array, instead of one message each: per-message work, not bytes, is what 100 viewports cost the server.
  let pending: OutFrame[] = [];
  let pendingBytes = 0;
  const flushTick = (): void => {
    const outs = pending;
    pending = [];
    pendingBytes = 0;
    if (outs.length > 0 && socket.readyState === socket.OPEN) socket.send(messageBytes(outs), { binary: false });
  };
  const sink = createQueuedSink(
    {
      // Frames waiting for the end of the turn count as buffered, so back-pressure sees them.
      bufferedAmount: () => socket.bufferedAmount + pendingBytes,
      write: (out) => {
        if (pending.length === 0) atEndOfTurn(flushTick);
        pending.push(out);
        pendingBytes += out.json.length;
      },
      close: (code, reason) => {
        flushTick();
        socket.close(code, reason);
      },
    },
    options.sink,
  );
  const limiter = createRateLimiter({ ...options.rateLimit, now: options.now });
  let strikes = 0;
  let unsubscribe: (() => void) | null = null;

  const send = (frame: ServerFrame): void => sink.send({ frame, json: JSON.stringify(frame) });
  const nack = (clientMsgId: string | null, code: NackCode, message: string): void =>
    send({ kind: "nack", clientMsgId, code, message });

  const hello: HelloFrame = {
    kind: "hello",
    v: PROTOCOL_VERSION,
    viewportId,
    epoch: controller.epoch,
    headSeq: controller.getState().headSeq,
    oldestSeq: controller.getState().oldestSeq,
  };
  send(hello);

  socket.on("message", (data, isBinary) => {
    if (!limiter.take()) {
      strikes++;
      if (strikes > options.maxRateStrikes) {
        sink.close(1008, "rate limit exceeded");
        return;
      }
      nack(null, "rate_limited", "too many commands; slow down");
      return;
    }
    if (isBinary) {
      nack(null, "invalid", "binary frames are not accepted");
      return;
    }
    const parsed = parseClientMessage(data.toString());
    if (!parsed.ok) {
      nack(parsed.clientMsgId, "invalid", parsed.message);
      return;
    }
    if ("ping" in parsed) {
      // Through the sink, behind any queued frames: a pong proves that everything before it was delivered.
      send(parsed.ping.t !== undefined ? { kind: "pong", t: parsed.ping.t } : { kind: "pong" });
      return;
    }
    const command = parsed.command;
    if (command.type === "subscribe") {
      unsubscribe?.();
      const subscription = controller.subscribe(
        {
          viewportId,
          ...(command.afterSeq !== undefined ? { afterSeq: command.afterSeq } : {}),
          ...(command.epoch !== undefined ? { epoch: command.epoch } : {}),
        },
        sink,
      );
      unsubscribe = subscription.unsubscribe;
      send({ kind: "ack", clientMsgId: command.clientMsgId, result: { mode: subscription.mode } });
      return;
    }
    void controller.execute(command, viewportId).then((reply: CommandReply) => send(reply));
  });

  socket.on("close", () => {
    unsubscribe?.();
    unsubscribe = null;
    sink.close(1000, "closed");
  });

  return {
    viewportId,
    close: (code, reason) => sink.close(code, reason),
  };
}

/**
 * The viewports with frames waiting, flushed by one `setImmediate` for all of them: at 100 viewports and 1,000
 * chunks/s, one timer per viewport per turn was 100,000 timers a second on the server's one thread.
 */
const dueFlushes: Array<() => void> = [];

function atEndOfTurn(flush: () => void): void {
  if (dueFlushes.push(flush) === 1) setImmediate(flushDue);
}

function flushDue(): void {
  // A flush never schedules another within this turn (its viewport's pending list is empty when it runs).
  const due = dueFlushes.splice(0);
  for (const flush of due) flush();
}

/** The last message built, reused by the next viewport that was sent the same frames in the same turn. */
let lastMessage: { outs: OutFrame[]; bytes: Uint8Array } | null = null;

/**
 * One turn's frames as one message: the frame alone, or a JSON array of them in order. Encoded once (UTF-8) for
 * every viewport that got the same frames, instead of once per socket.
 */
function messageBytes(outs: OutFrame[]): Uint8Array {
  if (outs.length === 1) {
    const out = outs[0]!;
    out.bytes ??= Buffer.from(out.json);
    return out.bytes;
  }
  const last = lastMessage;
  if (last && last.outs.length === outs.length && last.outs.every((o, i) => o === outs[i])) return last.bytes;
  const bytes = Buffer.from(`[${outs.map((o) => o.json).join(",")}]`);
  lastMessage = { outs, bytes };
  return bytes;
}
