/**
 * The sequence executor. The extension instance that serves a session executes the run's steps there, with its own
 * `pi`, its own state and the context pi gave it, until the iteration needs a new session (the reset before the
 * next run, or a `/handoff` step) or the run ends:
 *
 * - the whole sequence is resolved against current command metadata whenever a run enters an instance (at the
 *   start, at every later iteration, which always starts in a new instance, and after `/reload`);
 * - prompt-like steps wait until pi is idle again; `/compact` is `ctx.compact()` wrapped in a promise;
 *   `/readonly`, `/notebook` call the same functions as their slash commands;
 * - the run's position is recorded on the branch after every step (see run-records.ts), so the instance that
 *   follows a `/reload` continues where this one stopped.
 *
 * A new session can only be started from a command context; controller.ts does that. The executor only needs the
 * context every event handler gets, so it can run in an instance no command has reached.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../common/errors.ts";
import { runNotebookCommand } from "../notebook/notebook.ts";
import { runReadonlyCommand } from "../readonly/readonly.ts";
import type { CairnState } from "../state.ts";
import { substituteArgs } from "./args.ts";
import { currentCatalog } from "./catalog.ts";
import { expandSkill, expandTemplate } from "./expand.ts";
import { position, progressStatus, SEQUENCE_STATUS_KEY, statusRoom } from "./progress.ts";
import { resolveSequence } from "./resolve.ts";
import { createRunControl, type RunControl } from "./run-control.ts";
import {
  copyRun,
  isSessionChange,
  type RunRequest,
  requestRecord,
  runRecord,
  SEQUENCE_RUN_TYPE,
  type SequenceRunEntry,
} from "./run-records.ts";
import type { ResolvedStep, SequenceRun } from "./types.ts";

type StepOutcome = { kind: "done" } | { kind: "cancelled" } | { kind: "failed"; message: string };

export interface IterationStart {
  run: SequenceRun;
  /** A prompt to send before step `run.stepIndex` runs again: the direction after a handoff, which that step was. */
  direction?: string;
  /** Whether a command context will make the session change the iteration ends with (else the run pauses). */
  supervised: boolean;
  /** Settles when the steps may start; until then the run is claimed but idle (pi may still be starting up). */
  ready?: Promise<void>;
}

/**
 * Take the run into this instance and execute the rest of its current iteration. Resolves with what the iteration
 * ended with; the request is also recorded on the branch, and the notification for a run that ended is shown.
 * Everything up to the first step happens synchronously: when this returns, the run is claimed and recorded.
 */
export async function executeIteration(
  ctx: ExtensionContext,
  state: CairnState,
  start: IterationStart,
): Promise<RunRequest> {
  const run = copyRun(start.run);
  const control = createRunControl(run.id, start.supervised);
  control.direction = start.direction;
  state.sequence.activeRun = run;
  state.runControl = control;
  state.api.appendEntry(
    SEQUENCE_RUN_TYPE,
    runRecord(
      "running",
      run,
      state.services.now(),
      start.direction === undefined ? {} : { direction: start.direction },
    ),
  );
  const stopListening = ctx.ui.onTerminalInput((data) => {
    // Esc also interrupts the current turn in pi; the run stops at the next step boundary.
    if (control.status === "executing" && state.services.host.matchesKey(data, "escape")) control.cancel("Esc pressed");
    return undefined;
  });

  let request: RunRequest = { kind: "failed", run };
  try {
    await start.ready;
    request = await runSteps(ctx, state, run, control, start.direction);
  } catch (error) {
    request = fail(ctx, control, run, `Sequence aborted at ${position(run)}: ${errorMessage(error)}`);
  } finally {
    stopListening();
  }
  settle(ctx, state, control, request);
  return request;
}

/** Record the request and leave the run in the state it asks for. */
function settle(ctx: ExtensionContext, state: CairnState, control: RunControl, request: RunRequest): void {
  if (request.kind === "ended") {
    release(state, control);
  } else {
    const record = requestRecord(request, state.services.now());
    if (record) state.api.appendEntry(SEQUENCE_RUN_TYPE, record);
    if (!isSessionChange(request)) {
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
      release(state, control);
    } else if (control.supervised) {
      state.sequence.activeRun = copyRun(request.run);
      control.pending = request;
      control.status = "awaiting";
    } else {
      pauseRun(ctx, state, control, request);
    }
  }
  control.end(request);
}

/**
 * Hold a run that needs a new session nobody can start: after `/reload` no command context drives the run any more
 * (pi makes them all stale), and only a command can start a new session. The run waits for `/sequence`, which the
 * editor is given ready to send.
 */
export function pauseRun(ctx: ExtensionContext, state: CairnState, control: RunControl, request: RunRequest): void {
  state.sequence.activeRun = copyRun(request.run);
  state.runControl = control;
  control.pending = request;
  control.status = "paused";
  const next =
    request.kind === "handoff"
      ? `the handoff at ${position(request.run)}`
      : `run ${request.run.runIndex + 1}/${request.run.totalRuns}`;
  ctx.ui.setStatus(SEQUENCE_STATUS_KEY, `⏸ sequence · paused before ${next} · /sequence continues`);
  ctx.ui.notify(
    `Sequence paused before ${next}: starting a new session needs a command, and /reload ended the one that was running the sequence. Run /sequence to continue.`,
    "warning",
  );
  if (ctx.ui.getEditorText().trim().length === 0) ctx.ui.setEditorText("/sequence");
}

function release(state: CairnState, control: RunControl): void {
  if (state.runControl !== control) return;
  state.sequence.activeRun = null;
  state.runControl = null;
}

async function runSteps(
  ctx: ExtensionContext,
  state: CairnState,
  run: SequenceRun,
  control: RunControl,
  direction: string | undefined,
): Promise<RunRequest> {
  // Resolved afresh whenever a run enters an instance: templates, skills and commands may have changed.
  const resolution = resolveSequence(run.steps, currentCatalog(state));
  if (!resolution.ok) {
    const [first] = resolution.failures;
    const when = run.runIndex === 0 && run.stepIndex === 0 ? "before it started" : `at ${position(run)}`;
    const why = `step ${(first?.index ?? 0) + 1} can no longer run.\n${first?.message ?? ""}`;
    return fail(ctx, control, run, `Sequence aborted ${when}: ${why}`);
  }

  if (direction !== undefined) {
    ctx.ui.setStatus(SEQUENCE_STATUS_KEY, progressStatus(run, statusRoom(state)));
    const outcome = await sendPrompt(ctx, state, direction, control);
    control.direction = undefined;
    const ended = afterStep(ctx, control, run, outcome, run.steps[run.stepIndex] ?? "/handoff");
    if (ended) return ended;
    advance(state, run);
  }

  while (run.stepIndex < run.steps.length) {
    if (control.cancelled) return cancelled(ctx, control, run);
    ctx.ui.setStatus(SEQUENCE_STATUS_KEY, progressStatus(run, statusRoom(state)));
    const step = resolution.steps[run.stepIndex];
    if (!step) return fail(ctx, control, run, `Sequence aborted at ${position(run)}: the step is missing.`);
    if (step.kind === "agenticodingCommand" && step.name === "handoff") {
      return { kind: "handoff", run: copyRun(run), direction: substituteArgs(step.args, run.args) };
    }
    let outcome: StepOutcome;
    try {
      outcome = await executeStep(ctx, state, step, run, control);
    } catch (error) {
      outcome = { kind: "failed", message: errorMessage(error) };
    }
    const ended = afterStep(ctx, control, run, outcome, step.raw);
    if (ended) return ended;
    advance(state, run);
  }

  if (run.runIndex + 1 >= run.totalRuns) {
    const steps = count(run.steps.length, "step");
    ctx.ui.notify(`Sequence finished: ${count(run.totalRuns, "run")} of ${steps}.`, "info");
    return { kind: "finished", run: copyRun(run) };
  }
  if (control.cancelled) return cancelled(ctx, control, run);
  return { kind: "reset", run: { ...copyRun(run), runIndex: run.runIndex + 1, stepIndex: 0 } };
}

/** The request that ends the iteration after a step, or undefined to go on. */
function afterStep(
  ctx: ExtensionContext,
  control: RunControl,
  run: SequenceRun,
  outcome: StepOutcome,
  raw: string,
): RunRequest | undefined {
  if (outcome.kind === "cancelled" || control.cancelled) return cancelled(ctx, control, run);
  if (outcome.kind === "failed") {
    return fail(ctx, control, run, `Sequence aborted at ${position(run)} (${raw}): ${outcome.message}`);
  }
  return undefined;
}

/** Move to the next step and record the position, so a successor after `/reload` starts there. */
function advance(state: CairnState, run: SequenceRun): void {
  run.stepIndex++;
  if (run.stepIndex >= run.steps.length) return;
  const record: SequenceRunEntry = runRecord("running", run, state.services.now());
  state.api.appendEntry(SEQUENCE_RUN_TYPE, record);
}

async function executeStep(
  ctx: ExtensionContext,
  state: CairnState,
  step: ResolvedStep,
  run: SequenceRun,
  control: RunControl,
): Promise<StepOutcome> {
  const fill = (text: string) => substituteArgs(text, run.args);
  switch (step.kind) {
    case "prompt":
      return sendPrompt(ctx, state, fill(step.text), control);
    case "template":
      return sendPrompt(
        ctx,
        state,
        await expandTemplate(state.services.host, step.sourcePath, fill(step.args)),
        control,
      );
    case "skill":
      return sendPrompt(
        ctx,
        state,
        await expandSkill(state.services.host, step.name, step.sourcePath, fill(step.args)),
        control,
      );
    case "compact":
      await state.turns.whenIdle(() => ctx.isIdle());
      await compact(ctx, step.instructions === undefined ? undefined : fill(step.instructions));
      return { kind: "done" };
    case "agenticodingCommand": {
      const args = fill(step.args);
      const result =
        step.name === "readonly"
          ? await runReadonlyCommand(ctx, state, args)
          : await runNotebookCommand(ctx, state, args);
      return result.ok ? { kind: "done" } : { kind: "failed", message: result.message };
    }
  }
}

/**
 * Send a prompt and wait until its turn has settled; report how it ended. `pi.sendUserMessage()` returns before the
 * turn starts, so the wait is keyed to pi's `agent_start` … `agent_settled` pair.
 */
async function sendPrompt(
  ctx: ExtensionContext,
  state: CairnState,
  text: string,
  control: RunControl,
): Promise<StepOutcome> {
  await state.turns.whenIdle(() => ctx.isIdle());
  if (control.cancelled) return { kind: "cancelled" };
  if (!ctx.model) return { kind: "failed", message: "no model is selected." };
  const before = ctx.sessionManager.getLeafId();
  const turn = state.turns.nextTurn();
  state.api.sendUserMessage(text);
  await Promise.race([turn, control.whenCancelled]);
  if (control.sessionEnded) return { kind: "cancelled" };
  if (control.cancelled) {
    ctx.abort();
    await state.turns.whenIdle(() => ctx.isIdle());
    return { kind: "cancelled" };
  }
  await state.turns.whenIdle(() => ctx.isIdle());
  return turnOutcome(ctx, before);
}

/** How the turn started after entry `before` ended: its last assistant message's stop reason. */
function turnOutcome(ctx: ExtensionContext, before: string | null): StepOutcome {
  const branch = ctx.sessionManager.getBranch();
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (!entry || entry.id === before) break;
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    if (entry.message.stopReason === "aborted") return { kind: "cancelled" };
    if (entry.message.stopReason === "error") {
      return { kind: "failed", message: entry.message.errorMessage ?? "the model returned an error." };
    }
    return { kind: "done" };
  }
  return { kind: "failed", message: "the prompt produced no reply." };
}

function compact(ctx: ExtensionContext, customInstructions: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    ctx.compact({
      ...(customInstructions ? { customInstructions } : {}),
      onComplete: () => resolve(),
      onError: (error) => reject(error),
    });
  });
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function cancelled(ctx: ExtensionContext, control: RunControl, run: SequenceRun): RunRequest {
  if (control.sessionEnded) return { kind: "ended", run: copyRun(run) };
  ctx.ui.notify(`Sequence cancelled at ${position(run)}.`, "warning");
  return { kind: "cancelled", run: copyRun(run) };
}

function fail(ctx: ExtensionContext, control: RunControl, run: SequenceRun, message: string): RunRequest {
  if (control.sessionEnded) return { kind: "ended", run: copyRun(run) };
  ctx.ui.notify(message, "error");
  return { kind: "failed", run: copyRun(run) };
}
