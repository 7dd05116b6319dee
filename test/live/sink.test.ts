import { afterEach, describe, expect, it, vi } from "vitest";
import type { Envelope } from "../../src/live/protocol.ts";
import { createQueuedSink } from "../../src/live/sink.ts";

function chunk(seq: number, offset: number, delta: string): { frame: Envelope; json: string } {
  const frame: Envelope = {
    kind: "event",
    v: 1,
    epoch: "e",
    seq,
    ts: 0,
    event: { type: "response_chunk", messageId: "m", delta, offset },
  };
  return { frame, json: JSON.stringify(frame) };
}

function transport() {
  const t = {
    buffered: 0,
    written: [] as Envelope[],
    closed: null as { code: number; reason: string } | null,
    bufferedAmount: () => t.buffered,
    write: (out: { json: string }) => void t.written.push(JSON.parse(out.json) as Envelope),
    close: (code: number, reason: string) => {
      t.closed = { code, reason };
    },
  };
  return t;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("queued sink", () => {
  it("queues behind a full socket, merges adjacent chunks, and flushes in order once it drains", () => {
    vi.useFakeTimers();
    const t = transport();
    const sink = createQueuedSink(t, { highWaterBytes: 100, retryIntervalMs: 10, now: Date.now });
    sink.send(chunk(1, 0, "ab"));
    t.buffered = 1_000;
    sink.send(chunk(2, 2, "cd"));
    sink.send(chunk(3, 4, "ef"));
    expect(sink.queuedFrames).toBe(1);
    expect(sink.merged).toBe(1);
    t.buffered = 0;
    vi.advanceTimersByTime(10);
    expect(t.written.map((e) => [e.firstSeq ?? e.seq, e.seq, e.event])).toEqual([
      [1, 1, { type: "response_chunk", messageId: "m", delta: "ab", offset: 0 }],
      [2, 3, { type: "response_chunk", messageId: "m", delta: "cdef", offset: 2 }],
    ]);
    expect(sink.closed).toBe(false);
  });

  it("disconnects a viewport that stays behind longer than the slow timeout", () => {
    vi.useFakeTimers();
    const t = transport();
    const sink = createQueuedSink(t, { highWaterBytes: 100, slowTimeoutMs: 5_000, retryIntervalMs: 50, now: Date.now });
    t.buffered = 1_000;
    sink.send(chunk(1, 0, "a"));
    vi.advanceTimersByTime(4_900);
    expect(t.closed).toBeNull();
    vi.advanceTimersByTime(200);
    expect(t.closed).toEqual({ code: 4008, reason: "slow consumer; resubscribe" });
    sink.send(chunk(2, 1, "b"));
    expect(t.written).toEqual([]);
  });
});
