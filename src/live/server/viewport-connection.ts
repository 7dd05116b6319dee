/**
 * One WebSocket viewport: validates and rate-limits what it sends, subscribes it to the controller through a
 * back-pressured sink, and answers each command with a unicast ack or nack. Holds no session state of its own:
 * closing the tab only unsubscribes.
 */
import type { WebSocket } from "ws";
import { parseClientMessage } from "../commands.ts";
import type { LiveController } from "../controller.ts";
import { type CommandReply, type HelloFrame, type NackCode, PROTOCOL_VERSION, type ServerFrame } from "../protocol.ts";
import { createQueuedSink, type QueuedSinkOptions } from "../sink.ts";
import { createRateLimiter, type RateLimitOptions } from "./rate-limit.ts";

export interface ViewportConnectionOptions {
  socket: WebSocket;
  /** The connection under the WebSocket, corked while a tick's frames are written so they leave in one write. */
  stream?: { cork(): void; uncork(): void };
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
  const { socket, controller, viewportId, stream } = options;
  // Frames written in one tick (a burst of chunks) leave in one system call per viewport instead of one each:
  // at 100 viewports and 1,000 events/s the server spent most of its time in those calls.
  let corked = false;
  const corkForTick = (): void => {
    if (!stream || corked) return;
    corked = true;
    stream.cork();
    setImmediate(() => {
      corked = false;
      stream.uncork();
    });
  };
  const sink = createQueuedSink(
    {
      bufferedAmount: () => socket.bufferedAmount,
      // One UTF-8 encoding per frame for all viewports, instead of one per socket.
      write: (out) => {
        out.bytes ??= Buffer.from(out.json);
        corkForTick();
        socket.send(out.bytes, { binary: false });
      },
      close: (code, reason) => socket.close(code, reason),
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
