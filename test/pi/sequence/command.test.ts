import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { NOTEBOOK_ENTRY_TYPE } from "../../../src/pi/notebook/pages.ts";
import { READONLY_ENTRY_TYPE } from "../../../src/pi/readonly/readonly-state.ts";
import { RESTORE_CHOICES, RUN_COUNT_TITLE, registerSequence } from "../../../src/pi/sequence/command.ts";
import { SEQUENCE_STATUS_KEY } from "../../../src/pi/sequence/progress.ts";
import { executeRun } from "../../../src/pi/sequence/runner.ts";
import { latestSnapshot } from "../../../src/pi/sequence/snapshot.ts";
import { SEQUENCE_SNAPSHOT_TYPE } from "../../../src/pi/sequence/types.ts";
import { rehydrateState } from "../../../src/pi/state.ts";
import { KEYS, mountEditor } from "../helpers/editor-host.ts";
import { cairnCommands, command, createFakeContext } from "../helpers/fake-pi.ts";
import { createFakeReplacement } from "../helpers/replacement.ts";
import { createScriptedAgent } from "../helpers/scripted-agent.ts";
import { guardAgainstStaleUse } from "../helpers/stale.ts";
import { createTestState } from "../helpers/test-state.ts";

function snapshot(steps: string[], sequenceId = "seq-1") {
  return { version: 1, sequenceId, steps, updatedAt: 1 };
}

/** One extension instance on a session that already holds `steps` as its latest snapshot. */
function instanceWithSnapshot(steps: string[]) {
  const session = SessionManager.inMemory("/project");
  session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot(steps));
  const agent = createScriptedAgent();
  const setup = createTestState({ session, onUserMessage: (text) => agent.onUserMessage(text) });
  agent.attach(setup.state, session);
  registerSequence(setup.pi.api, setup.state);
  rehydrateState(setup.state, session.getBranch());
  return { session, agent, ...setup };
}

describe("/sequence restore and start", () => {
  it("offers Run / Edit / Start new / Cancel when the branch has a snapshot; Cancel does nothing", async () => {
    const { pi, session } = instanceWithSnapshot(["Say hi"]);
    const { ctx, ui } = createFakeContext({ session });
    ui.answers.select.push("Cancel");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.asked).toEqual([{ kind: "select", title: "Restore last sequence?", options: [...RESTORE_CHOICES] }]);
    expect(pi.userMessages).toEqual([]);
  });

  it("without a snapshot goes straight to recording", async () => {
    const setup = createTestState();
    registerSequence(setup.pi.api, setup.state);
    const { ctx, ui } = createFakeContext();
    const started = setup.pi.runCommand("sequence", "", ctx);
    expect(ui.editorFactory).toBeDefined();
    mountEditor(ui.editorFactory as NonNullable<typeof ui.editorFactory>).handleInput(KEYS.escape);
    await started;
    expect(ui.asked).toEqual([]);
    expect(ui.notifications).toEqual([{ message: "Sequence recording cancelled.", type: "info" }]);
  });

  it("a recorded sequence is persisted as a snapshot before it runs", async () => {
    const setup = createTestState({ session: SessionManager.inMemory("/project") });
    registerSequence(setup.pi.api, setup.state);
    const { ctx, ui } = createFakeContext();
    const started = setup.pi.runCommand("sequence", "", ctx);
    const editor = mountEditor(ui.editorFactory as NonNullable<typeof ui.editorFactory>);
    editor.setText("/notebook write a b");
    editor.handleInput(KEYS.ctrlEnterKitty);
    await started;
    expect(setup.pi.entries[0]).toEqual({
      customType: SEQUENCE_SNAPSHOT_TYPE,
      data: { version: 1, sequenceId: "id-1", steps: ["/notebook write a b"], updatedAt: 1001 },
    });
    expect(setup.state.sequence.lastRecorded).toMatchObject({ id: "id-1", steps: ["/notebook write a b"] });
    expect(ui.asked).toEqual([{ kind: "input", title: RUN_COUNT_TITLE }]);
  });

  it("Run asks the run count with the seed's prompt, re-asks bad answers, and runs with the command's args", async () => {
    const { pi, session, agent, state } = instanceWithSnapshot([
      "/notebook write plan Draft for $1",
      "/readonly",
      "Say hi to $@",
    ]);
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    ui.answers.select.push("Run");
    ui.answers.input.push("zero", "0", "");
    await pi.runCommand("sequence", `Ada "Lovelace Byron"`, ctx);

    expect(ui.asked.filter((a) => a.kind === "input").map((a) => a.title)).toEqual([
      RUN_COUNT_TITLE,
      RUN_COUNT_TITLE,
      RUN_COUNT_TITLE,
    ]);
    expect(state.notebook.pages.get("plan")?.content).toBe("Draft for Ada");
    expect(state.readonly.enabled).toBe(true);
    expect(pi.userMessages).toEqual(["Say hi to Ada Lovelace Byron"]);
    expect(agent.replies).toEqual(["ok: Say hi to Ada Lovelace Byron"]);
    expect(pi.entries.map((e) => e.customType)).toEqual([NOTEBOOK_ENTRY_TYPE, READONLY_ENTRY_TYPE]);
    expect(ui.statusLog.filter((s) => s.key === SEQUENCE_STATUS_KEY).map((s) => s.text)).toEqual([
      "⟳ sequence · run 1/1 · step 1/3 · /notebook write plan Draft for $1",
      "⟳ sequence · run 1/1 · step 2/3 · /readonly",
      "⟳ sequence · run 1/1 · step 3/3 · Say hi to $@",
      undefined,
    ]);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence finished: 1 run of 3 steps.", type: "info" });
    expect(state.sequence.activeRun).toBeNull();
  });

  it("unsupported commands fail before anything runs", async () => {
    const { pi, session } = instanceWithSnapshot(["/readonly", "/publish now"]);
    pi.commandList.push(command("publish", "extension", "/elsewhere/publish.ts"));
    const { ctx, ui } = createFakeContext({ session });
    ui.answers.select.push("Run");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.notifications).toEqual([
      {
        message:
          "The sequence cannot run:\nStep 2: Unsupported step: /publish is an external extension command.\npi-agenticoding cannot execute third-party extension command handlers.",
        type: "error",
      },
    ]);
    expect(ui.asked.map((a) => a.kind)).toEqual(["select"]);
    expect(pi.entries).toEqual([]);
  });

  it("a dismissed run-count dialog starts nothing", async () => {
    const { pi, session } = instanceWithSnapshot(["/readonly"]);
    const { ctx, ui } = createFakeContext({ session });
    ui.answers.select.push("Run");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence not started.", type: "info" });
    expect(pi.entries).toEqual([]);
  });
});

describe("sequence runner", () => {
  it("re-validates right before running and aborts visibly when a step no longer resolves", async () => {
    const { state, session, pi } = instanceWithSnapshot(["/review it"]);
    pi.commandList = cairnCommands();
    const { ctx, ui } = createFakeContext({ session });
    const outcome = await executeRun(ctx, state, {
      id: "run-1",
      sequenceId: "seq-1",
      steps: ["/review it"],
      args: [],
      totalRuns: 1,
      runIndex: 0,
      stepIndex: 0,
    });
    expect(outcome).toBe("failed");
    expect(ui.notifications).toEqual([
      {
        message:
          "Sequence aborted before it started: step 1 can no longer run.\nUnsupported step: /review is not a known command.\nSequences can run prompts, /readonly, /handoff, /notebook, /compact, prompt templates and skills.",
        type: "error",
      },
    ]);
  });

  it("resets between iterations through newSession, carrying only the run and writing the snapshot in setup", async () => {
    const { state, session, services } = instanceWithSnapshot(["/notebook write note run", "Work on it"]);
    const successors: Array<ReturnType<typeof createTestState>> = [];
    const replacement = createFakeReplacement({
      onStart: ({ session: next }) => {
        // What createCairnExtension does for the new instance on session_start.
        const successor = createTestState({ session: next, services });
        rehydrateState(successor.state, next.getBranch());
        services.relay.register(next.getSessionId(), {
          continueRun: async (fresh, run) => {
            await executeRun(fresh, successor.state, run);
          },
        });
        successors.push(successor);
      },
    });
    const { ctx } = createFakeContext({ session, newSession: replacement.newSession, withModel: true });
    const guard = guardAgainstStaleUse(ctx);

    const outcome = await executeRun(guard.ctx, state, {
      id: "run-1",
      sequenceId: "seq-1",
      steps: ["/notebook write note run", "Work on it"],
      args: [],
      totalRuns: 3,
      runIndex: 0,
      stepIndex: 0,
    });

    expect(outcome).toBe("handed-off");
    expect(guard.stale).toBe(true);
    expect(guard.staleReads).toEqual([]);
    expect(replacement.sessions).toHaveLength(2);
    for (const [index, next] of replacement.sessions.entries()) {
      // The snapshot is restorable in every replacement session.
      expect(latestSnapshot(next.session.getBranch())).toMatchObject({
        id: "seq-1",
        steps: ["/notebook write note run", "Work on it"],
      });
      expect(next.sent).toEqual(["Work on it"]);
      expect(successors[index]?.pi.entries.map((e) => e.customType)).toEqual([NOTEBOOK_ENTRY_TYPE]);
      // The notebook starts empty in each new session; only this run's page is there.
      expect([...(successors[index]?.state.notebook.pages.keys() ?? [])]).toEqual(["note"]);
    }
    const last = replacement.sessions[1]?.fresh.ui;
    expect(last?.statusLog.filter((s) => s.key === SEQUENCE_STATUS_KEY).map((s) => s.text)).toEqual([
      "⟳ sequence · run 3/3 · step 1/2 · /notebook write note run",
      "⟳ sequence · run 3/3 · step 2/2 · Work on it",
      undefined,
    ]);
    expect(last?.notifications.at(-1)).toEqual({ message: "Sequence finished: 3 runs of 2 steps.", type: "info" });
  });

  it.each([
    [
      { cancelled: true },
      { message: "Sequence cancelled before run 2/2: the new session was cancelled.", type: "warning" },
    ],
    [
      { cancelled: false },
      { message: "Sequence stopped before run 2/2: pi did not start a new session.", type: "error" },
    ],
  ])("says so when the reset between runs does not happen (%j)", async (result, notification) => {
    const { state, session } = instanceWithSnapshot(["/readonly"]);
    const { ctx, ui } = createFakeContext({ session, newSession: async () => result });
    const outcome = await executeRun(ctx, state, {
      id: "run-1",
      sequenceId: "seq-1",
      steps: ["/readonly"],
      args: [],
      totalRuns: 2,
      runIndex: 0,
      stepIndex: 0,
    });
    expect(outcome).toBe(result.cancelled ? "cancelled" : "failed");
    expect(ui.notifications.at(-1)).toEqual(notification);
    expect(ui.statuses.has(SEQUENCE_STATUS_KEY)).toBe(false);
    expect(state.sequence.activeRun).toBeNull();
  });

  it("aborts visibly when the model fails a prompt step", async () => {
    const session = SessionManager.inMemory("/project");
    session.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot(["First", "Second"]));
    const setup = createTestState({
      session,
      onUserMessage: () => {
        // The turn ends with a model error.
        setup.state.turns.started();
        session.appendMessage(fauxAssistantMessage("", { stopReason: "error", errorMessage: "rate limited" }));
        setup.state.turns.settled();
      },
    });
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    const outcome = await executeRun(ctx, setup.state, {
      id: "r",
      sequenceId: "seq-1",
      steps: ["First", "Second"],
      args: [],
      totalRuns: 1,
      runIndex: 0,
      stepIndex: 0,
    });
    expect(outcome).toBe("failed");
    expect(setup.pi.userMessages).toEqual(["First"]);
    expect(ui.notifications.at(-1)).toEqual({
      message: "Sequence aborted at run 1/1, step 1/2 (First): rate limited",
      type: "error",
    });
  });

  it("cancels from /sequence while a step is running; later steps do not run", async () => {
    const { pi, session, agent, state } = instanceWithSnapshot(["First", "Second"]);
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    const other = createFakeContext({ session });
    other.ui.answers.confirm.push(true);
    agent.duringNextTurn(() => pi.runCommand("sequence", "", other.ctx));
    ui.answers.select.push("Run");
    ui.answers.input.push("2");
    await pi.runCommand("sequence", "", ctx);

    expect(other.ui.asked).toEqual([{ kind: "confirm", title: "Cancel the running sequence?" }]);
    expect(pi.userMessages).toEqual(["First"]);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence cancelled at run 1/2, step 1/2.", type: "warning" });
    expect(state.sequence.activeRun).toBeNull();
  });

  it("Esc during a run cancels it", async () => {
    const { pi, session, agent } = instanceWithSnapshot(["First", "Second"]);
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    agent.duringNextTurn(() => {
      for (const listener of ui.terminalListeners) listener("\x1b");
    });
    ui.answers.select.push("Run");
    ui.answers.input.push("1");
    await pi.runCommand("sequence", "", ctx);
    expect(pi.userMessages).toEqual(["First"]);
    expect(ui.notifications.at(-1)?.message).toBe("Sequence cancelled at run 1/1, step 1/2.");
  });
});
