/**
 * Where the controller delivers frames for one viewport, and the back-pressure policy for a slow one.
 *
 * The controller calls `send` synchronously and never awaits it, so one slow tab can never slow the driver or
 * the other tabs. A queued sink writes straight through while its transport keeps up; past the high-water mark
 * it queues (merging adjacent chunks of one message), and if it stays behind for too long, or its queue grows
 * too big, it closes the connection with 4008 so the viewport resubscribes with `afterSeq` (or gets a
 * snapshot). Frames are never dropped silently.
 */
import type { Envelope, ServerFrame } from "./protocol.ts";

export interface OutFrame {
  frame: ServerFrame;
  /** The frame serialized once, shared by every sink that writes it unchanged. */
  json: string;
  /** `json` encoded once (UTF-8) by the first transport that needs bytes, then reused by the others. */
  bytes?: Uint8Array;
}

/** Contract: `send` must not throw and must not block; the controller drops a sink whose `send` throws. */
export interface LiveSink {
  send(out: OutFrame): void;
  close(code: number, reason: string): void;
}

/** The bit of a socket the queued sink needs. `ws`'s WebSocket fits through a three-line adapter. */
export interface FrameTransport {
  bufferedAmount(): number;
  write(out: OutFrame): void;
  close(code: number, reason: string): void;
}

export interface QueuedSinkOptions {
  /** Bytes the transport may hold unsent before frames are queued here instead. */
  highWaterBytes: number;
  /** Queue size at which the viewport is disconnected at once. */
  maxQueuedBytes: number;
  /** How long the sink may stay behind before it is disconnected. */
  slowTimeoutMs: number;
  /** How often a congested sink retries its queue. */
  retryIntervalMs: number;
  now: () => number;
}

export const DEFAULT_QUEUED_SINK_OPTIONS: QueuedSinkOptions = {
  highWaterBytes: 1024 * 1024,
  maxQueuedBytes: 8 * 1024 * 1024,
  slowTimeoutMs: 5_000,
  retryIntervalMs: 50,
  now: Date.now,
};

export const SLOW_CONSUMER_CLOSE_CODE = 4008;

export interface QueuedSink extends LiveSink {
  /** Writes what the transport can take now; called by the retry timer and by tests. */
  flush(): void;
  readonly queuedFrames: number;
  readonly queuedBytes: number;
  readonly closed: boolean;
  /** Adjacent chunks merged so far (for diagnostics and tests). */
  readonly merged: number;
}

interface Queued {
  frame: ServerFrame;
  json: string | null;
  bytes: number;
}

/** Merges `next` into `last` when both are contiguous chunks of the same message in the same epoch. */
function mergeChunks(last: ServerFrame, next: ServerFrame): Envelope | null {
  if (last.kind !== "event" || next.kind !== "event" || last.epoch !== next.epoch) return null;
  const a = last.event;
  const b = next.event;
  if (a.type !== "response_chunk" || b.type !== "response_chunk" || a.messageId !== b.messageId) return null;
  if (next.seq !== last.seq + 1 || a.offset + a.delta.length !== b.offset) return null;
  return {
    ...next,
    firstSeq: last.firstSeq ?? last.seq,
    event: { type: "response_chunk", messageId: a.messageId, delta: a.delta + b.delta, offset: a.offset },
  };
}

export function createQueuedSink(transport: FrameTransport, options: Partial<QueuedSinkOptions> = {}): QueuedSink {
  const o = { ...DEFAULT_QUEUED_SINK_OPTIONS, ...options };
  const queue: Queued[] = [];
  let queuedBytes = 0;
  let behindSince: number | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  let merged = 0;

  const stopTimer = (): void => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  const close = (code: number, reason: string): void => {
    if (closed) return;
    closed = true;
    stopTimer();
    queue.length = 0;
    queuedBytes = 0;
    transport.close(code, reason);
  };

  const flush = (): void => {
    if (closed) return;
    while (queue.length > 0 && transport.bufferedAmount() < o.highWaterBytes) {
      const item = queue.shift()!;
      queuedBytes -= item.bytes;
      transport.write({ frame: item.frame, json: item.json ?? JSON.stringify(item.frame) });
    }
    if (queue.length === 0) {
      behindSince = null;
      stopTimer();
    } else if (behindSince !== null && o.now() - behindSince > o.slowTimeoutMs) {
      close(SLOW_CONSUMER_CLOSE_CODE, "slow consumer; resubscribe");
    }
  };

  return {
    send(out) {
      if (closed) return;
      if (queue.length === 0 && transport.bufferedAmount() < o.highWaterBytes) {
        transport.write(out);
        return;
      }
      const last = queue[queue.length - 1];
      const mergedFrame = last ? mergeChunks(last.frame, out.frame) : null;
      if (last && mergedFrame) {
        queuedBytes -= last.bytes;
        last.frame = mergedFrame;
        last.json = null;
        last.bytes += out.json.length;
        queuedBytes += last.bytes;
        merged++;
      } else {
        queue.push({ frame: out.frame, json: out.json, bytes: out.json.length });
        queuedBytes += out.json.length;
      }
      if (queuedBytes > o.maxQueuedBytes) {
        close(SLOW_CONSUMER_CLOSE_CODE, "slow consumer; resubscribe");
        return;
      }
      if (behindSince === null) behindSince = o.now();
      if (!timer) {
        timer = setInterval(flush, o.retryIntervalMs);
        timer.unref?.();
      }
    },
    close,
    flush,
    get queuedFrames() {
      return queue.length;
    },
    get queuedBytes() {
      return queuedBytes;
    },
    get closed() {
      return closed;
    },
    get merged() {
      return merged;
    },
  };
}
