/**
 * The claude driver through the real Claude Agent SDK, pointed at a fake Claude Code CLI
 * (fixtures/fake-claude.mjs) with `pathToClaudeCodeExecutable`: the SDK's own control plumbing (request ids,
 * cancellation) is exercised, with no network and no API key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { createClaudeDriver } from "../../src/live/drivers/claude.ts";
import { createDriver, loadOptional } from "../../src/live/drivers/index.ts";
import type { PendingPrompt } from "../../src/live/protocol.ts";
import { createRecordingSink } from "./helpers/recording-sink.ts";

const fakeCli = join(import.meta.dirname, "fixtures/fake-claude.mjs");
const controllers: LiveController[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of controllers.splice(0)) await c.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "cairn-claude-"));
  dirs.push(cwd);
  const driver = createClaudeDriver({
    cwd,
    pathToClaudeCodeExecutable: fakeCli,
    env: { PATH: process.env["PATH"], HOME: cwd },
  });
  const controller = createLiveController({ driver });
  controllers.push(controller);
  const sink = createRecordingSink();
  controller.subscribe({ viewportId: "watch" }, sink);
  return { controller, sink };
}

async function waitForPrompt(controller: LiveController): Promise<PendingPrompt> {
  await vi.waitFor(() => expect(controller.getPendingPrompts()).toHaveLength(1), { timeout: 15_000 });
  return controller.getPendingPrompts()[0]!;
}

const lastText = (controller: LiveController) => controller.getSnapshot().view.transcript.at(-1);

describe("claude driver (real SDK, fake CLI)", () => {
  it("streams a reply and keeps one process across turns", async () => {
    const { controller, sink } = setup();
    const first = await controller.sendMessage({ text: "hello there" });
    expect(await first.done).toMatchObject({ status: "completed", usage: { inputTokens: 10, outputTokens: 5 } });
    expect(lastText(controller)).toMatchObject({ kind: "assistant", text: "Echo: hello there", status: "completed" });
    expect(sink.types().filter((t) => t === "response_chunk").length).toBeGreaterThan(1);
    const second = await controller.sendMessage({ text: "again" });
    expect((await second.done).status).toBe("completed");
    expect(lastText(controller)).toMatchObject({ text: "Echo: again" });
    expect(controller.getState().model).toBe("fake-claude");
  });

  it("asks the viewport through canUseTool and passes allow and deny back to the CLI", async () => {
    const { controller, sink } = setup();
    const allowed = await controller.sendMessage({ text: "use a tool" });
    const prompt = await waitForPrompt(controller);
    expect(prompt).toMatchObject({ kind: "tool_permission", toolName: "Bash", input: { command: "ls" } });
    expect(prompt.toolUseId).toMatch(/^toolu_/);
    controller.respondToPrompt(prompt.id, { kind: "tool_permission", allow: true }, { viewportId: "v" });
    await allowed.done;
    expect(lastText(controller)).toMatchObject({ text: "Tool said: file-a\nfile-b" });

    const denied = await controller.sendMessage({ text: "use a tool again" });
    const second = await waitForPrompt(controller);
    controller.respondToPrompt(
      second.id,
      { kind: "tool_permission", allow: false, message: "no" },
      { viewportId: "v" },
    );
    await denied.done;
    expect(lastText(controller)).toMatchObject({ text: "Tool said: denied: denied by the user: no" });
    const ends = sink
      .envelopes()
      .filter((e) => e.event.type === "tool_end")
      .map((e) => e.event);
    expect(ends.map((e) => (e.type === "tool_end" ? e.isError === true : null))).toEqual([false, true]);
  });

  it("routes AskUserQuestion to a question form and returns the answers", async () => {
    const { controller } = setup();
    const sent = await controller.sendMessage({ text: "a question" });
    const prompt = await waitForPrompt(controller);
    expect(prompt).toMatchObject({ kind: "ask_user_question", questions: [{ question: "Which color?" }] });
    controller.respondToPrompt(
      prompt.id,
      { kind: "ask_user_question", answers: { "Which color?": "Blue" } },
      { viewportId: "v" },
    );
    await sent.done;
    expect(lastText(controller)).toMatchObject({ text: "You picked Blue" });
  });

  it("cancels the open prompt on interrupt and ends the turn", async () => {
    const { controller, sink } = setup();
    const sent = await controller.sendMessage({ text: "tool please" });
    const prompt = await waitForPrompt(controller);
    await controller.interrupt();
    expect((await sent.done).status).toBe("interrupted");
    const resolved = sink.envelopes().filter((e) => e.event.type === "prompt_resolved");
    expect(resolved.map((e) => e.event)).toEqual([
      { type: "prompt_resolved", promptId: prompt.id, resolution: "cancelled" },
    ]);
    // The session survives: the next turn runs in the same process.
    const next = await controller.sendMessage({ text: "still there?" });
    expect((await next.done).status).toBe("completed");
  });

  it("fails the turn when Claude Code dies, then resumes the same session in a new process", async () => {
    const { controller, sink } = setup();
    const crashed = await controller.sendMessage({ text: "please crash" });
    expect((await crashed.done).status).toBe("failed");
    expect(sink.envelopes().some((e) => e.event.type === "error" && e.event.code === "driver_error")).toBe(true);
    const next = await controller.sendMessage({ text: "are you back?" });
    expect((await next.done).status).toBe("completed");
    expect(lastText(controller)).toMatchObject({ text: "Echo: are you back?" });
    const ids = sink.envelopes().flatMap((e) => (e.event.type === "session_started" ? [e.event.sessionId] : []));
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it("explains a missing SDK instead of failing obscurely", async () => {
    const missing = "@anthropic-ai/not-installed-" + "sdk";
    await expect(loadOptional(() => import(missing), "claude", "@anthropic-ai/claude-agent-sdk")).rejects.toThrow(
      "the claude driver needs @anthropic-ai/claude-agent-sdk, which is not installed (npm install @anthropic-ai/claude-agent-sdk)",
    );
    // The scripted driver needs neither SDK.
    await expect(createDriver({ name: "scripted", cwd: "/" })).rejects.toThrow(/needs a script/);
  });
});
