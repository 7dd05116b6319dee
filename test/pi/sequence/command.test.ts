import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import { NOTEBOOK_ENTRY_TYPE, rebuildPages } from "../../../src/pi/notebook/pages.ts";
import { READONLY_ENTRY_TYPE } from "../../../src/pi/readonly/readonly-state.ts";
import { ARGS_TITLE, RESTORE_CHOICES, RUN_COUNT_TITLE, registerSequence } from "../../../src/pi/sequence/command.ts";
import { leaveRun } from "../../../src/pi/sequence/handover.ts";
import { SEQUENCE_STATUS_KEY } from "../../../src/pi/sequence/progress.ts";
import { latestRunRecord, SEQUENCE_RUN_TYPE } from "../../../src/pi/sequence/run-records.ts";
import { executeIteration } from "../../../src/pi/sequence/runner.ts";
import { latestSnapshot } from "../../../src/pi/sequence/snapshot.ts";
import { SEQUENCE_SNAPSHOT_TYPE, type SequenceRun } from "../../../src/pi/sequence/types.ts";
import { rehydrateState } from "../../../src/pi/state.ts";
import { KEYS, mountEditor } from "../helpers/editor-host.ts";
import { cairnCommands, command, createFakeContext } from "../helpers/fake-pi.ts";
import { piHost } from "../helpers/pi-host.ts";
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
  // As the extension does: a session change or reload takes the run out of this instance.
  setup.pi.api.on("session_shutdown", (event) => {
    leaveRun(event.reason, setup.state);
  });
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

  it("shows the steps it would run above the restore prompt", async () => {
    const { pi, session } = instanceWithSnapshot(["/readonly", "Plan the implementation for $@", "/handoff execution"]);
    const { ctx, ui } = createFakeContext({ session });
    ui.answers.select.push("Cancel");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.widgetLog[0]).toEqual([
      "Sequence",
      "1. /readonly",
      "2. Plan the implementation for $@",
      "3. /handoff execution",
    ]);
    expect(ui.widgets.get("cairn-sequence")).toBeUndefined();
  });

  it("Run asks for the arguments when a step uses them and none were typed", async () => {
    const { pi, session } = instanceWithSnapshot(["Plan the implementation for $@"]);
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    ui.answers.select.push("Run");
    ui.answers.input.push('the "auth module"', "");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.asked.filter((a) => a.kind === "input").map((a) => a.title)).toEqual([ARGS_TITLE, RUN_COUNT_TITLE]);
    expect(pi.userMessages).toEqual(["Plan the implementation for the auth module"]);
  });

  it("Run offers the arguments this sequence last ran with; an empty answer reuses them", async () => {
    const { pi, session } = instanceWithSnapshot(["Plan the implementation for $@"]);
    const run = { id: "r0", sequenceId: "seq-1", steps: ["x"], totalRuns: 1, runIndex: 0, stepIndex: 1 };
    session.appendCustomEntry(SEQUENCE_RUN_TYPE, {
      version: 1,
      phase: "finished",
      run: { ...run, args: ["the", "auth module"] },
      updatedAt: 2,
    });
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    ui.answers.select.push("Run");
    ui.answers.input.push("", "");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.asked.filter((a) => a.kind === "input")[0]?.title).toBe(`${ARGS_TITLE} [the "auth module"]`);
    expect(pi.userMessages).toEqual(["Plan the implementation for the auth module"]);
  });

  it("dismissing the arguments question starts nothing", async () => {
    const { pi, session } = instanceWithSnapshot(["Plan $1"]);
    const { ctx, ui } = createFakeContext({ session, withModel: true });
    ui.answers.select.push("Run");
    await pi.runCommand("sequence", "", ctx);
    expect(pi.userMessages).toEqual([]);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence not started.", type: "info" });
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
    expect(pi.entries.map((e) => e.customType).filter((type) => type !== SEQUENCE_RUN_TYPE)).toEqual([
      NOTEBOOK_ENTRY_TYPE,
      READONLY_ENTRY_TYPE,
    ]);
    // The run's position is on the branch after every step, then its end.
    expect(
      pi.entries.flatMap((e) =>
        e.customType === SEQUENCE_RUN_TYPE ? [(e.data as { phase: string; run: { stepIndex: number } }).phase] : [],
      ),
    ).toEqual(["running", "running", "running", "finished"]);
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

const RUN: SequenceRun = {
  id: "run-1",
  sequenceId: "seq-1",
  steps: ["x"],
  args: [],
  totalRuns: 1,
  runIndex: 0,
  stepIndex: 0,
};

describe("sequence runner", () => {
  it("re-validates right before running and aborts visibly when a step no longer resolves", async () => {
    const { state, session, pi } = instanceWithSnapshot(["/review it"]);
    pi.commandList = cairnCommands();
    const { ctx, ui } = createFakeContext({ session });
    const request = await executeIteration(ctx, state, { run: { ...RUN, steps: ["/review it"] }, supervised: true });
    expect(request.kind).toBe("failed");
    expect(ui.notifications).toEqual([
      {
        message:
          "Sequence aborted before it started: step 1 can no longer run.\nUnsupported step: /review is not a known command.\nSequences can run prompts, /readonly, /handoff, /notebook, /compact, prompt templates and skills.",
        type: "error",
      },
    ]);
    expect(latestRunRecord(session.getBranch())).toMatchObject({ phase: "failed", run: { id: "run-1" } });
  });

  it("resets between iterations: only run records cross, each new instance claims and runs its iteration", async () => {
    const steps = ["/notebook write note run", "Work on it"];
    const { pi, state, session } = instanceWithSnapshot(steps);
    const replacement = createFakeReplacement({
      extension: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }) }),
    });
    replacement.serving(pi);
    const { ctx, ui } = createFakeContext({ session, newSession: replacement.newSession, withModel: true });
    const guard = guardAgainstStaleUse(ctx);
    ui.answers.select.push("Run");
    ui.answers.input.push("3");

    await pi.runCommand("sequence", "", guard.ctx);

    // The first instance ran run 1 and never touched its context or its pi after the reset.
    expect(guard.stale).toBe(true);
    expect(guard.staleReads).toEqual([]);
    expect(state.sequence.activeRun).toBeNull();
    expect(replacement.sessions).toHaveLength(2);
    for (const [index, next] of replacement.sessions.entries()) {
      const branch = next.session.getBranch();
      // The snapshot is restorable in every replacement session.
      expect(latestSnapshot(branch)).toMatchObject({ id: "seq-1", steps });
      expect(next.sent).toEqual(["Work on it"]);
      // Only plain run data came in: a start record, then this instance's own records.
      const records = branch.flatMap((entry) =>
        entry.type === "custom" && entry.customType === SEQUENCE_RUN_TYPE
          ? [entry.data as { phase: string; run: { runIndex: number; stepIndex: number } }]
          : [],
      );
      const last = index === 1;
      expect(records.map((r) => `${r.phase} ${r.run.runIndex + 1}.${r.run.stepIndex + 1}`)).toEqual([
        `start ${index + 2}.1`,
        `running ${index + 2}.1`,
        `running ${index + 2}.2`,
        // A finished run stands past its last step; a reset names the first step of the next run.
        last ? "finished 3.3" : "reset 3.1",
      ]);
      // The notebook starts empty in each new session; only this run's page is there.
      expect(rebuildPages(branch).size).toBe(1);
    }
    const lastUi = replacement.sessions[1]?.fresh.ui;
    expect(lastUi?.statusLog.filter((s) => s.key === SEQUENCE_STATUS_KEY).map((s) => s.text)).toEqual([
      "⟳ sequence · run 3/3 · step 1/2 · /notebook write note run",
      "⟳ sequence · run 3/3 · step 2/2 · Work on it",
      undefined,
    ]);
    expect(lastUi?.notifications.at(-1)).toEqual({ message: "Sequence finished: 3 runs of 2 steps.", type: "info" });
  });

  it("aborts visibly when the new session has no instance to claim the run", async () => {
    const { pi, session } = instanceWithSnapshot(["/readonly on"]);
    const replacement = createFakeReplacement();
    const { ctx, ui } = createFakeContext({ session, newSession: replacement.newSession, withModel: true });
    ui.answers.select.push("Run");
    ui.answers.input.push("2");
    await pi.runCommand("sequence", "", ctx);
    expect(replacement.sessions[0]?.fresh.ui.notifications.at(-1)).toEqual({
      message:
        "Sequence aborted at run 2/2, step 1/1: the new session has no running pi-agenticoding extension to continue it.",
      type: "error",
    });
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
    const { pi, state, session } = instanceWithSnapshot(["/readonly"]);
    const { ctx, ui } = createFakeContext({ session, newSession: async () => result, withModel: true });
    ui.answers.select.push("Run");
    ui.answers.input.push("2");
    await pi.runCommand("sequence", "", ctx);
    expect(ui.notifications.at(-1)).toEqual(notification);
    expect(ui.statuses.has(SEQUENCE_STATUS_KEY)).toBe(false);
    expect(state.sequence.activeRun).toBeNull();
    expect(latestRunRecord(session.getBranch())?.phase).toBe(result.cancelled ? "cancelled" : "failed");
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
    const request = await executeIteration(ctx, setup.state, {
      run: { ...RUN, steps: ["First", "Second"] },
      supervised: true,
    });
    expect(request.kind).toBe("failed");
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
