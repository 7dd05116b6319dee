import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { parseScript } from "../../src/live/drivers/script-format.ts";
import { createScriptedDriver } from "../../src/live/drivers/scripted.ts";
import type { SessionEventType } from "../../src/live/protocol.ts";
import type { LiveSink } from "../../src/live/sink.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { createRecordingSink } from "./helpers/recording-sink.ts";

const examples = join(import.meta.dirname, "../../examples");

function load(name: string) {
  const parsed = parseScript(readFileSync(join(examples, name), "utf8"), name);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.script;
}

/** A viewport that answers every prompt as soon as it appears: allow, and the first option of each question. */
function autoAnswer(controller: LiveController, allow = true): LiveSink {
  return {
    send(out) {
      const frame = out.frame;
      if (frame.kind !== "event" || frame.event.type !== "prompt_pending") return;
      const prompt = frame.event.prompt;
      queueMicrotask(() => {
        const response =
          prompt.kind === "tool_permission"
            ? { kind: "tool_permission" as const, allow }
            : {
                kind: "ask_user_question" as const,
                answers: Object.fromEntries((prompt.questions ?? []).map((q) => [q.question, q.options[0]!.label])),
              };
        controller.respondToPrompt(prompt.id, response, { viewportId: "robot" });
      });
    },
    close() {},
  };
}

describe("scripted driver", () => {
  it("ships example scripts that all parse", () => {
    const files = readdirSync(examples).filter((f) => f.startsWith("live-") && f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files)
      expect(parseScript(readFileSync(join(examples, file), "utf8"), file)).toMatchObject({ ok: true });
  });

  it("plays the demo script and together with a clear produces every event kind", async () => {
    const driver = createScriptedDriver({ script: load("live-demo.json"), cwd: "/work", chunkDelayMs: 0 });
    const controller = createLiveController({ driver });
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "watch" }, sink);
    controller.subscribe({ viewportId: "robot" }, autoAnswer(controller));

    const first = await controller.sendMessage({ text: "fix the parser" });
    expect(await first.done).toEqual({ status: "completed" });
    const second = await controller.sendMessage({ text: "go on" });
    expect(await second.done).toEqual({ status: "failed" });
    await controller.sendMessage({ text: "third time" });
    await controller.clearSession("demo over");

    const kinds: SessionEventType[] = [
      "session_started",
      "turn_started",
      "response_start",
      "response_chunk",
      "response_end",
      "tool_start",
      "tool_input",
      "tool_end",
      "prompt_pending",
      "prompt_resolved",
      "error",
      "turn_ended",
      "session_cleared",
    ];
    expect(new Set(sink.types())).toEqual(new Set(kinds));
    const view = controller.getSnapshot().view;
    expect(view.transcript).toEqual([]);
    const old = sink.snapshots()[0];
    expect(old?.seq).toBe(0);

    const ask = sink
      .envelopes()
      .find((e) => e.event.type === "tool_end" && e.event.output && typeof e.event.output === "object");
    expect(ask?.event).toMatchObject({ output: { "How should I fix the tokenizer?": "Fix the loop bound" } });
    const failed = sink.envelopes().find((e) => e.event.type === "error" && e.event.code === "driver_error");
    expect(failed?.event).toMatchObject({ message: "the model call failed (scripted failure)" });
  });

  it("reports a denied tool as an error result and goes on", async () => {
    const driver = createScriptedDriver({ script: load("live-permission.json"), cwd: "/work", chunkDelayMs: 0 });
    const controller = createLiveController({ driver });
    controller.subscribe({ viewportId: "robot" }, autoAnswer(controller, false));
    const sent = await controller.sendMessage({ text: "list" });
    expect(await sent.done).toEqual({ status: "completed" });
    const tool = controller.getSnapshot().view.transcript.find((i) => i.kind === "tool");
    expect(tool).toMatchObject({ toolName: "bash", status: "error", output: "denied by the user" });
    expect(controller.getSnapshot().view.transcript.at(-1)).toMatchObject({
      kind: "assistant",
      text: "The directory holds only the README, so nothing else is at risk.",
    });
  });

  it("stops at the prompt when interrupted", async () => {
    const driver = createScriptedDriver({ script: load("live-permission.json"), cwd: "/work", chunkDelayMs: 0 });
    const controller = createLiveController({ driver });
    const sink = createRecordingSink();
    controller.subscribe({ viewportId: "v" }, sink);
    const sent = await controller.sendMessage({ text: "list" });
    while (controller.getPendingPrompts().length === 0) await new Promise((r) => setImmediate(r));
    await controller.interrupt();
    expect(await sent.done).toEqual({ status: "interrupted" });
    expect(sink.types().slice(-3)).toEqual(["prompt_resolved", "tool_end", "turn_ended"]);
  });

  it("replays a recorded pi session as a script", async () => {
    const file = realFixture("pi/agent-history__real_sessions_pi_session-01.jsonl");
    const parsed = parseScript(readFileSync(file, "utf8"), "pi session");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.script.turns.length).toBeGreaterThan(0);
    const driver = createScriptedDriver({ script: parsed.script, cwd: "/work", chunkDelayMs: 0 });
    const controller = createLiveController({ driver });
    controller.subscribe({ viewportId: "robot" }, autoAnswer(controller));
    const sent = await controller.sendMessage({ text: "replay" });
    expect(await sent.done).toEqual({ status: "completed" });
    expect(controller.getSnapshot().view.transcript.length).toBeGreaterThan(1);
  });

  it("explains what is wrong with a bad script", () => {
    expect(parseScript("{", "x.json")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^x\.json: not valid JSON/),
    });
    expect(parseScript(JSON.stringify({ version: 1, turns: [{ steps: [{ type: "tool" }] }] }), "y.json")).toEqual({
      ok: false,
      error: expect.stringMatching(/^y\.json: turns\.0\.steps\.0\.name: /),
    });
    expect(parseScript('{"type":"session","id":"s"}\n', "z.jsonl")).toMatchObject({ ok: false });
  });
});
