/**
 * Randomized interleavings of everything viewports and the driver can do at once: answers from several tabs
 * (with retries), interrupts, clears, resubscribes, chunks. Thousands of seeded trials check the invariants
 * that the prompt and replay design promise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLiveController } from "../../src/live/controller.ts";
import type { CommandReply, Envelope } from "../../src/live/protocol.ts";
import { applyEvent, createEmptyView } from "../../src/live/view-state.ts";
import { createFakeDriver } from "./helpers/fake-driver.ts";
import { createRecordingSink, type RecordingSink } from "./helpers/recording-sink.ts";

const op = fc.oneof(
  fc.record({ t: fc.constant("send" as const) }),
  fc.record({ t: fc.constant("chunk" as const), n: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ t: fc.constant("prompt" as const) }),
  fc.record({
    t: fc.constant("answer" as const),
    viewer: fc.integer({ min: 0, max: 2 }),
    pick: fc.nat(),
    allow: fc.boolean(),
    retry: fc.boolean(),
  }),
  fc.record({ t: fc.constant("interrupt" as const) }),
  fc.record({ t: fc.constant("clear" as const) }),
  fc.record({ t: fc.constant("finish" as const) }),
  fc.record({ t: fc.constant("resubscribe" as const), viewer: fc.integer({ min: 0, max: 2 }), back: fc.nat(30) }),
  fc.record({ t: fc.constant("tick" as const) }),
);

interface Viewer {
  id: string;
  sinks: RecordingSink[];
  epoch: string;
  lastSeq: number;
}

/** Checks one viewer's frames: contiguous seq per epoch, no resolved prompt shown open. */
function checkViewer(viewer: Viewer): void {
  let epoch = "";
  let lastSeq = -1;
  let view = createEmptyView();
  for (const sink of viewer.sinks) {
    for (const frame of sink.frames) {
      if (frame.kind === "snapshot") {
        epoch = frame.epoch;
        lastSeq = frame.seq;
        view = frame.view;
      } else if (frame.kind === "event") {
        if (frame.epoch !== epoch) continue; // the client resubscribes on an epoch change
        if (frame.seq <= lastSeq) continue; // duplicate after a resubscribe: dropped by the client rule
        expect(frame.seq).toBe(lastSeq + 1);
        applyEvent(view, frame.event, frame.turnId);
        lastSeq = frame.seq;
      }
    }
  }
  void view;
}

describe("live controller under random interleavings", () => {
  it("keeps prompt resolution, ordering and replay invariants", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const driver = createFakeDriver();
        const controller = createLiveController({ driver, drainTimeoutMs: 50 });
        const watcher = createRecordingSink();
        controller.subscribe({ viewportId: "watcher" }, watcher);
        const viewers: Viewer[] = [0, 1, 2].map((i) => {
          const sink = createRecordingSink();
          controller.subscribe({ viewportId: `v${i}` }, sink);
          return { id: `v${i}`, sinks: [sink], epoch: controller.epoch, lastSeq: 0 };
        });
        const promptIds: string[] = [];
        const pending: Promise<unknown>[] = [];
        const replies: Array<{ promptId: string; clientMsgId: string; reply: CommandReply }> = [];
        const sentIds: Array<{ clientMsgId: string; promptId: string; allow: boolean }> = [];
        let counter = 0;

        for (const o of ops) {
          const turn = driver.currentTurn;
          switch (o.t) {
            case "send":
              pending.push(controller.sendMessage({ text: "go" }).catch(() => {}));
              break;
            case "chunk":
              for (let i = 0; i < o.n; i++) turn?.context.emit({ type: "response_chunk", messageId: "m", delta: "ab" });
              break;
            case "prompt":
              if (turn) {
                pending.push(turn.context.requestPrompt({ kind: "tool_permission", toolName: "bash", input: {} }));
                const open = controller.getPendingPrompts().at(-1);
                if (open && !promptIds.includes(open.id)) promptIds.push(open.id);
              }
              break;
            case "answer": {
              if (promptIds.length === 0) break;
              const previous = o.retry ? sentIds[o.pick % Math.max(sentIds.length, 1)] : undefined;
              const target = previous ?? {
                clientMsgId: `c${counter++}`,
                promptId: promptIds[o.pick % promptIds.length]!,
                allow: o.allow,
              };
              if (!previous) sentIds.push(target);
              const reply = controller
                .execute(
                  {
                    type: "respond_prompt",
                    clientMsgId: target.clientMsgId,
                    promptId: target.promptId,
                    response: { kind: "tool_permission", allow: target.allow },
                  },
                  `v${o.viewer}`,
                )
                .then((r) => {
                  replies.push({ promptId: target.promptId, clientMsgId: target.clientMsgId, reply: r });
                });
              pending.push(reply);
              break;
            }
            case "interrupt":
              pending.push(controller.interrupt());
              break;
            case "clear":
              pending.push(controller.clearSession("random"));
              break;
            case "finish":
              turn?.finish();
              break;
            case "resubscribe": {
              const viewer = viewers[o.viewer]!;
              const seen = viewer.sinks.flatMap((s) => s.envelopes()).filter((e) => e.epoch === controller.epoch);
              const last = seen.at(-1)?.seq ?? 0;
              const sink = createRecordingSink();
              viewer.sinks.push(sink);
              controller.subscribe(
                { viewportId: viewer.id, epoch: controller.epoch, afterSeq: Math.max(0, last - o.back) },
                sink,
              );
              break;
            }
            case "tick":
              await new Promise((r) => setImmediate(r));
              break;
          }
        }
        driver.currentTurn?.finish();
        await Promise.all(pending);
        await controller.dispose();

        const events = watcher.envelopes();
        // Exactly one prompt_resolved per prompt, and never a second pending for the same id.
        for (const id of promptIds) {
          const resolved = events.filter((e) => e.event.type === "prompt_resolved" && e.event.promptId === id);
          expect(resolved).toHaveLength(1);
        }
        // Every prompt opened in an epoch is resolved before that epoch's session_cleared, and every turn
        // that started ended before it.
        const byEpoch = new Map<string, Envelope[]>();
        for (const e of events) byEpoch.set(e.epoch, [...(byEpoch.get(e.epoch) ?? []), e]);
        for (const list of byEpoch.values()) {
          const open = new Set<string>();
          const turns = new Set<string>();
          for (const e of list) {
            if (e.event.type === "prompt_pending") open.add(e.event.prompt.id);
            if (e.event.type === "prompt_resolved") open.delete(e.event.promptId);
            if (e.event.type === "turn_started") turns.add(e.event.turnId);
            if (e.event.type === "turn_ended") {
              expect(turns.delete(e.event.turnId)).toBe(true);
              for (const p of list) {
                if (p.event.type === "prompt_pending" && p.event.prompt.turnId === e.event.turnId) {
                  expect(open.has(p.event.prompt.id)).toBe(false);
                }
              }
            }
            if (e.event.type === "session_cleared") {
              expect(open.size).toBe(0);
              expect(turns.size).toBe(0);
              expect(e).toBe(list.at(-1));
            }
          }
        }
        // At most one winning answer per prompt; duplicates got identical replies; losers never got not_found.
        for (const id of promptIds) {
          const forPrompt = replies.filter((r) => r.promptId === id);
          const winners = new Set(forPrompt.filter((r) => r.reply.kind === "ack").map((r) => r.clientMsgId));
          expect(winners.size).toBeLessThanOrEqual(1);
          for (const r of forPrompt) {
            if (r.reply.kind === "nack") expect(["already_resolved"]).toContain(r.reply.code);
            const same = forPrompt.filter((x) => x.clientMsgId === r.clientMsgId);
            for (const x of same) expect(x.reply).toEqual(r.reply);
          }
        }
        for (const viewer of viewers) checkViewer(viewer);
        checkViewer({ id: "watcher", sinks: [watcher], epoch: "", lastSeq: 0 });
      }),
      { numRuns: 3_000, seed: 20_260_205 },
    );
  }, 120_000);
});
