import { describe, expect, it, vi } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { LiveError } from "../../src/live/errors.ts";
import type { PendingPrompt } from "../../src/live/protocol.ts";
import { createQueuedSink } from "../../src/live/sink.ts";
import { applyEvent, createEmptyView } from "../../src/live/view-state.ts";
import { createFakeDriver, type FakeDriver } from "./helpers/fake-driver.ts";
import { createRecordingSink, type RecordingSink } from "./helpers/recording-sink.ts";

function setup(options: Parameters<typeof createLiveController>[0] extends infer O ? Partial<O> : never = {}) {
  const driver = createFakeDriver();
  const controller = createLiveController({ driver, drainTimeoutMs: 200, ...options });
  return { driver, controller };
}

/** Rebuilds what a viewport shows from the frames it received, exactly as the page does. */
function replay(
  sink: RecordingSink,
  from: { epoch: string; afterSeq: number; view?: ReturnType<typeof createEmptyView> } = { epoch: "", afterSeq: 0 },
) {
  let view = from.view ?? createEmptyView();
  let lastSeq = from.afterSeq;
  let epoch = from.epoch;
  for (const frame of sink.frames) {
    if (frame.kind === "snapshot") {
      view = frame.view;
      lastSeq = frame.seq;
      epoch = frame.epoch;
    } else if (frame.kind === "event") {
      if (frame.epoch !== epoch) throw new Error(`envelope from epoch ${frame.epoch} while in ${epoch}`);
      if ((frame.firstSeq ?? frame.seq) !== lastSeq + 1) throw new Error(`gap: ${lastSeq} then ${frame.seq}`);
      applyEvent(view, frame.event, frame.turnId);
      lastSeq = frame.seq;
    }
  }
  return { view, lastSeq };
}

async function askPermission(driver: FakeDriver, controller: LiveController) {
  const sent = await controller.sendMessage({ text: "run it" });
  const turn = await driver.nextTurn();
  const outcome = turn.context.requestPrompt({ kind: "tool_permission", toolName: "bash", input: { command: "ls" } });
  const prompt = controller.getPendingPrompts()[0] as PendingPrompt;
  return { sent, turn, outcome, prompt };
}

describe("live controller", () => {
  it("delivers a turn to a viewport that subscribes after the message was sent", async () => {
    const { driver, controller } = setup();
    const sent = await controller.sendMessage({ text: "hello", clientMsgId: "m1" });
    const turn = await driver.nextTurn();
    turn.context.emit({ type: "response_chunk", messageId: "a1", delta: "Hi " });

    const late = createRecordingSink();
    expect(controller.subscribe({ viewportId: "v1" }, late).mode).toBe("snapshot");
    turn.context.emit({ type: "response_chunk", messageId: "a1", delta: "there" });
    turn.finish();
    await sent.done;

    expect(late.snapshots()[0]?.view.transcript.map((i) => i.kind)).toEqual(["user", "assistant"]);
    expect(late.types()).toEqual(["response_chunk", "response_end", "turn_ended"]);
    const { view } = replay(late);
    expect(view.transcript[1]).toMatchObject({ kind: "assistant", text: "Hi there", status: "completed" });
    expect(view.turnId).toBeNull();
  });

  it("runs a turn to completion with no subscriber and shows it to whoever comes later", async () => {
    const { driver, controller } = setup();
    const sent = await controller.sendMessage({ text: "work alone" });
    const turn = await driver.nextTurn();
    turn.context.emit({ type: "tool_start", toolUseId: "t1", toolName: "read" });
    turn.context.emit({ type: "tool_input", toolUseId: "t1", input: { path: "a.ts" } });
    turn.context.emit({ type: "tool_end", toolUseId: "t1", output: "contents" });
    turn.context.emit({ type: "response_chunk", messageId: "a1", delta: "done" });
    turn.finish({ status: "completed", usage: { inputTokens: 3, outputTokens: 2 } });

    expect(await sent.done).toEqual({ status: "completed", usage: { inputTokens: 3, outputTokens: 2 } });
    expect(controller.getState()).toMatchObject({ status: "ready", isStreaming: false, headSeq: 9 });
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "v" }, sink);
    const view = sink.snapshots()[0]!.view;
    expect(view.transcript).toMatchObject([
      { kind: "user", text: "work alone" },
      { kind: "tool", toolName: "read", input: { path: "a.ts" }, output: "contents", status: "done" },
      { kind: "assistant", text: "done", status: "completed" },
    ]);
    expect(view.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
  });

  it("keeps seq contiguous across a subscribe in the middle of a chunk burst", async () => {
    const { driver, controller } = setup();
    const early = createRecordingSink();
    controller.subscribe({ viewportId: "early" }, early);
    const sent = await controller.sendMessage({ text: "burst" });
    const turn = await driver.nextTurn();
    const late: Array<{ sink: RecordingSink; from?: Parameters<typeof replay>[1] }> = [];
    let expected = "";
    for (let i = 0; i < 600; i++) {
      const delta = `c${i} `;
      expected += delta;
      turn.context.emit({ type: "response_chunk", messageId: "a1", delta });
      if (i % 150 === 75) {
        // A brand-new tab (snapshot) and a reconnecting one (replay from the early tab's position).
        const fresh = createRecordingSink();
        controller.subscribe({ viewportId: `fresh${i}` }, fresh);
        // The reconnecting tab already holds the early tab's view up to `lastSeq`.
        const again = createRecordingSink();
        const lastSeq = early.envelopes().at(-1)!.seq - 20;
        const upTo = createRecordingSink();
        upTo.frames.push(...early.frames.filter((f) => f.kind !== "event" || f.seq <= lastSeq));
        const from = { epoch: controller.epoch, afterSeq: lastSeq, view: replay(upTo).view };
        expect(
          controller.subscribe({ viewportId: `re${i}`, epoch: controller.epoch, afterSeq: lastSeq }, again).mode,
        ).toBe("replay");
        late.push({ sink: fresh }, { sink: again, from });
      }
    }
    turn.finish();
    await sent.done;

    for (const { sink, from } of [{ sink: early }, ...late]) {
      const { view, lastSeq } = replay(sink, from);
      expect(lastSeq).toBe(controller.getState().headSeq);
      expect(view.transcript.find((i) => i.kind === "assistant")).toMatchObject({ text: expected });
    }
    const seqs = early.envelopes().map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it("falls back to a snapshot when the ring no longer holds the gap", async () => {
    const { driver, controller } = setup({ ring: { maxEvents: 10 } });
    await controller.sendMessage({ text: "long" });
    const turn = await driver.nextTurn();
    for (let i = 0; i < 40; i++) turn.context.emit({ type: "response_chunk", messageId: "a1", delta: "x" });
    const head = controller.getState().headSeq;
    expect(controller.getState().oldestSeq).toBe(head - 9);

    const covered = createRecordingSink();
    expect(controller.subscribe({ viewportId: "a", epoch: controller.epoch, afterSeq: head - 10 }, covered).mode).toBe(
      "replay",
    );
    expect(covered.envelopes().map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => head - 9 + i));

    const evicted = createRecordingSink();
    expect(controller.subscribe({ viewportId: "b", epoch: controller.epoch, afterSeq: 3 }, evicted).mode).toBe(
      "snapshot",
    );
    expect(evicted.snapshots()[0]).toMatchObject({ seq: head });
    expect(replay(evicted).view.transcript[1]).toMatchObject({ text: "x".repeat(40) });

    const otherEpoch = createRecordingSink();
    expect(controller.subscribe({ viewportId: "c", epoch: "old", afterSeq: head }, otherEpoch).mode).toBe("snapshot");
  });

  it("evicts by age and bytes too", async () => {
    let clock = 1_000;
    const { driver, controller } = setup({ ring: { maxAgeMs: 100, maxBytes: 1_000_000 }, now: () => clock });
    await controller.sendMessage({ text: "t" });
    const turn = await driver.nextTurn();
    turn.context.emit({ type: "response_chunk", messageId: "a", delta: "old" });
    clock += 500;
    turn.context.emit({ type: "response_chunk", messageId: "a", delta: "new" });
    const sink = createRecordingSink();
    expect(controller.subscribe({ viewportId: "v", epoch: controller.epoch, afterSeq: 1 }, sink).mode).toBe("snapshot");

    const small = setup({ ring: { maxBytes: 2_000 } });
    await small.controller.sendMessage({ text: "t" });
    const t2 = await small.driver.nextTurn();
    for (let i = 0; i < 100; i++) t2.context.emit({ type: "response_chunk", messageId: "a", delta: "y".repeat(50) });
    expect(small.controller.getState().oldestSeq).toBeGreaterThan(50);
  });

  it("starts a new epoch on clear: prompts cancelled, session_cleared last, then a fresh snapshot", async () => {
    const { driver, controller } = setup();
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "v" }, sink);
    const { outcome, prompt } = await askPermission(driver, controller);
    const oldEpoch = controller.epoch;
    const session = driver.sessions[0]!;

    const cleared = await controller.clearSession("user asked");
    expect(await outcome).toEqual({ resolution: "cancelled" });
    expect(cleared.epoch).not.toBe(oldEpoch);
    expect(session.closed).toBe(true);
    const oldTypes = sink.envelopes().filter((e) => e.epoch === oldEpoch);
    expect(oldTypes.map((e) => e.event.type).slice(-3)).toEqual(["prompt_resolved", "turn_ended", "session_cleared"]);
    expect(oldTypes.at(-3)?.event).toMatchObject({ promptId: prompt.id, resolution: "cancelled" });
    expect(sink.frames.at(-1)).toMatchObject({ kind: "snapshot", epoch: cleared.epoch, seq: 0 });
    expect(controller.getPendingPrompts()).toEqual([]);

    // The old epoch's position is meaningless now: a resubscribe gets a snapshot.
    const again = createRecordingSink();
    expect(controller.subscribe({ viewportId: "w", epoch: oldEpoch, afterSeq: 3 }, again).mode).toBe("snapshot");

    await controller.sendMessage({ text: "next" });
    expect(sink.envelopes().at(-1)).toMatchObject({ epoch: cleared.epoch, event: { type: "turn_started" } });
    expect(sink.envelopes().filter((e) => e.epoch === cleared.epoch)[0]?.seq).toBe(1);
    expect(driver.sessions).toHaveLength(2);
  });

  it("drops whatever an old turn does after its epoch ended", async () => {
    const driver = createFakeDriver({ endOnInterrupt: false });
    const controller = createLiveController({ driver, drainTimeoutMs: 20 });
    const sent = await controller.sendMessage({ text: "slow" });
    const stale = await driver.nextTurn();
    await controller.clearSession();
    expect(await sent.done).toEqual({ status: "interrupted" });
    const head = controller.getState().headSeq;

    await controller.sendMessage({ text: "fresh" });
    const fresh = await driver.nextTurn();
    expect(fresh).not.toBe(stale);
    const before = controller.getState().headSeq;
    stale.context.emit({ type: "response_chunk", messageId: "zombie", delta: "late" });
    expect(await stale.context.requestPrompt({ kind: "tool_permission", toolName: "bash", input: {} })).toEqual({
      resolution: "cancelled",
    });
    stale.finish();
    expect(controller.getState().headSeq).toBe(before);
    expect(controller.getState()).toMatchObject({ status: "streaming", turnId: fresh.context.turnId });
    expect(head).toBe(0);
  });

  it("lets exactly one of two viewports resolve a prompt; the other is told already_resolved", async () => {
    const { driver, controller } = setup();
    const a = createRecordingSink();
    const b = createRecordingSink();
    controller.subscribe({ viewportId: "A" }, a);
    controller.subscribe({ viewportId: "B" }, b);
    const { outcome, prompt } = await askPermission(driver, controller);

    const first = controller.respondToPrompt(
      prompt.id,
      { kind: "tool_permission", allow: true },
      {
        viewportId: "A",
        clientMsgId: "a-1",
      },
    );
    const second = controller.respondToPrompt(
      prompt.id,
      { kind: "tool_permission", allow: false },
      {
        viewportId: "B",
        clientMsgId: "b-1",
      },
    );

    expect(first).toEqual({ kind: "ack", clientMsgId: "a-1", result: { promptId: prompt.id, resolution: "answered" } });
    expect(second).toMatchObject({ kind: "nack", code: "already_resolved", resolution: "answered", byViewport: "A" });
    expect(await outcome).toEqual({
      resolution: "answered",
      response: { kind: "tool_permission", allow: true },
      byViewport: "A",
    });
    for (const sink of [a, b]) {
      const resolved = sink.envelopes().filter((e) => e.event.type === "prompt_resolved");
      expect(resolved.map((e) => e.event)).toEqual([
        { type: "prompt_resolved", promptId: prompt.id, resolution: "answered", byViewport: "A", decision: "allow" },
      ]);
      expect(sink.frames.some((f) => f.kind === "nack")).toBe(false);
    }
    const unknown = controller.respondToPrompt("nope", { kind: "tool_permission", allow: true }, { viewportId: "A" });
    expect(unknown).toMatchObject({ kind: "nack", code: "not_found" });
  });

  it("acks a double-clicked answer twice with the same result and resolves once", async () => {
    const { driver, controller } = setup();
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "A" }, sink);
    const { prompt } = await askPermission(driver, controller);
    const command = {
      type: "respond_prompt" as const,
      clientMsgId: "click-1",
      promptId: prompt.id,
      response: { kind: "tool_permission" as const, allow: true },
    };
    const [one, two] = await Promise.all([
      controller.execute(command, "A"),
      controller.execute(command, "A-reconnected"),
    ]);
    expect(one).toEqual(two);
    expect(one.kind).toBe("ack");
    expect(sink.types().filter((t) => t === "prompt_resolved")).toHaveLength(1);

    const reused = await controller.execute({ type: "interrupt", clientMsgId: "click-1" }, "A");
    expect(reused).toMatchObject({ kind: "nack", code: "invalid" });

    const send = { type: "send_message" as const, clientMsgId: "s-1", text: "x" };
    const busy = await controller.execute(send, "A");
    expect(busy).toMatchObject({ kind: "nack", code: "busy" });
    expect(await controller.execute(send, "A")).toEqual(busy);
  });

  it("cancels an open prompt before the interrupted turn ends", async () => {
    const { driver, controller } = setup();
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "v" }, sink);
    const { outcome, sent, prompt } = await askPermission(driver, controller);
    turnText(driver, "partial");

    expect(await controller.interrupt()).toEqual({ interrupted: true });
    expect(await outcome).toEqual({ resolution: "cancelled" });
    expect(await sent.done).toEqual({ status: "interrupted" });
    expect(sink.types().slice(-4)).toEqual(["response_chunk", "prompt_resolved", "response_end", "turn_ended"]);
    expect(sink.envelopes().at(-1)?.event).toMatchObject({ type: "turn_ended", status: "interrupted" });
    expect(sink.envelopes().at(-2)?.event).toMatchObject({ type: "response_end", status: "interrupted" });
    expect(driver.sessions[0]!.interrupts).toBe(1);
    expect(
      controller.respondToPrompt(prompt.id, { kind: "tool_permission", allow: true }, { viewportId: "v" }),
    ).toMatchObject({
      code: "already_resolved",
      resolution: "cancelled",
    });
    // The session survives an interrupt.
    await controller.sendMessage({ text: "again" });
    expect(driver.sessions).toHaveLength(1);
    expect(await controller.interrupt()).toEqual({ interrupted: true });
    expect(await controller.interrupt()).toEqual({ interrupted: false });
  });

  it("ends a turn itself when the driver ignores the interrupt", async () => {
    const driver = createFakeDriver({ endOnInterrupt: false });
    const controller = createLiveController({ driver, drainTimeoutMs: 10 });
    const sent = await controller.sendMessage({ text: "stuck" });
    await driver.nextTurn();
    await controller.interrupt();
    expect(await sent.done).toEqual({ status: "interrupted" });
    expect(controller.isStreaming()).toBe(false);
  });

  it("cancels a prompt whose SDK signal aborts", async () => {
    const { driver, controller } = setup();
    await controller.sendMessage({ text: "t" });
    const turn = await driver.nextTurn();
    const sdkSignal = new AbortController();
    const outcome = turn.context.requestPrompt(
      { kind: "tool_permission", toolName: "bash", input: {} },
      { signal: sdkSignal.signal },
    );
    expect(controller.getPendingPrompts()).toHaveLength(1);
    sdkSignal.abort();
    expect(await outcome).toEqual({ resolution: "cancelled" });
    expect(controller.getPendingPrompts()).toEqual([]);
    expect(controller.isStreaming()).toBe(true);
  });

  it("never times a prompt out by default, and expires it when configured", async () => {
    const { driver, controller } = setup();
    const { prompt } = await askPermission(driver, controller);
    expect(prompt.expiresAt).toBeUndefined();

    vi.useFakeTimers();
    try {
      const timed = setup({ promptTimeoutMs: 1_000 });
      await timed.controller.sendMessage({ text: "t" });
      const turn = await timed.driver.nextTurn();
      const outcome = turn.context.requestPrompt({ kind: "tool_permission", toolName: "bash", input: {} });
      expect(timed.controller.getPendingPrompts()[0]?.expiresAt).toBeTypeOf("number");
      vi.advanceTimersByTime(1_001);
      expect(await outcome).toEqual({ resolution: "expired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("disconnects a slow viewport without stalling the others or the driver", async () => {
    const { driver, controller } = setup();
    const fast = createRecordingSink();
    let closed: { code: number; reason: string } | null = null;
    let written = 0;
    const slow = createQueuedSink(
      {
        bufferedAmount: () => (written > 5 ? 10_000_000 : 0),
        write: () => void written++,
        close: (code, reason) => {
          closed = { code, reason };
        },
      },
      { maxQueuedBytes: 64 * 1024 },
    );
    controller.subscribe({ viewportId: "fast" }, fast);
    const slowSub = controller.subscribe({ viewportId: "slow" }, slow);
    const sent = await controller.sendMessage({ text: "firehose" });
    const turn = await driver.nextTurn();
    for (let i = 0; i < 20_000; i++) turn.context.emit({ type: "response_chunk", messageId: "a", delta: `${i},` });
    turn.context.emit({ type: "tool_start", toolUseId: "t", toolName: "bash" });
    turn.finish();
    await sent.done;

    expect(closed).toEqual({ code: 4008, reason: "slow consumer; resubscribe" });
    expect(slow.merged).toBeGreaterThan(0);
    expect(fast.envelopes()).toHaveLength(controller.getState().headSeq);
    slowSub.unsubscribe();
    expect(controller.getState().subscribers).toBe(1);
  });

  it("drops a sink that throws and keeps serving the rest", async () => {
    const { driver, controller } = setup();
    const good = createRecordingSink();
    controller.subscribe(
      { viewportId: "bad" },
      {
        send: () => {
          throw new Error("boom");
        },
        close: () => {},
      },
    );
    expect(controller.getState().subscribers).toBe(0);
    controller.subscribe({ viewportId: "good" }, good);
    await controller.sendMessage({ text: "t" });
    await driver.nextTurn();
    expect(good.types()).toContain("turn_started");
  });

  it("returns start-up failures and refusals to the caller", async () => {
    const { driver, controller } = setup();
    driver.failNextOpen(new Error("no API key"));
    await expect(controller.sendMessage({ text: "x" })).rejects.toThrow(
      /could not start the scripted session: no API key/,
    );
    expect(controller.getState().status).toBe("idle");

    await expect(controller.sendMessage({ text: "x", expectEpoch: "other" })).rejects.toMatchObject({
      code: "stale_epoch",
    });
    await controller.sendMessage({ text: "first" });
    const error = await controller.sendMessage({ text: "second" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveError);
    expect(error).toMatchObject({ code: "busy" });

    const turn = await driver.nextTurn();
    turn.fail(new Error("model exploded"));
    const sink = createRecordingSink();
    await vi.waitFor(() => expect(controller.isStreaming()).toBe(false));
    controller.subscribe({ viewportId: "v" }, sink);
    expect(sink.snapshots()[0]?.view.transcript.at(-1)).toMatchObject({
      kind: "notice",
      code: "driver_error",
      text: "model exploded",
    });
  });

  it("starts, resumes and checks the resumed id", async () => {
    const { driver, controller } = setup();
    const started = await controller.startSession({ prompt: "go", clientMsgId: "c" });
    expect(started).toMatchObject({ sessionId: "fake-1", epoch: controller.epoch });
    expect(started.turnId).toBeTypeOf("string");
    (await driver.nextTurn()).finish();

    const resumed = await controller.resumeSession({ sessionId: "abc" });
    expect(resumed.sessionId).toBe("abc");
    expect(resumed.epoch).not.toBe(started.epoch);
    expect(driver.sessions[0]!.closed).toBe(true);

    const reply = await controller.execute({ type: "new_session", clientMsgId: "n1" }, "v");
    expect(reply).toMatchObject({ kind: "ack", result: { sessionId: "fake-2" } });
    await controller.dispose();
    expect(controller.getState().status).toBe("closed");
    await expect(controller.sendMessage({ text: "x" })).rejects.toThrow(/disposed/);
  });
});

function turnText(driver: FakeDriver, text: string): void {
  driver.currentTurn!.context.emit({ type: "response_chunk", messageId: "m", delta: text });
}

describe("snapshot view bounds", () => {
  it("keeps the transcript and tool payloads bounded and counts what it dropped", async () => {
    const driver = createFakeDriver();
    const controller = createLiveController({ driver, view: { maxItems: 5, maxPayloadChars: 10 } });
    await controller.sendMessage({ text: "many tools" });
    const turn = await driver.nextTurn();
    for (let i = 0; i < 8; i++) {
      turn.context.emit({ type: "tool_start", toolUseId: `t${i}`, toolName: "read" });
      turn.context.emit({ type: "tool_end", toolUseId: `t${i}`, output: "x".repeat(100) });
    }
    const view = controller.getSnapshot().view;
    expect(view.transcript).toHaveLength(5);
    expect(view.droppedItems).toBe(4);
    expect(view.transcript.at(-1)).toMatchObject({ toolUseId: "t7", output: `${"x".repeat(10)}…` });
  });
});
