/**
 * The sequence runner. It executes a `SequenceRun` in the session of the context it is given, using the state of
 * the extension instance serving that session, and crosses session boundaries only through pi's own API:
 *
 * - the whole sequence is resolved against current command metadata before a run starts, again before every
 *   iteration, and again whenever the run continues in a new extension instance;
 * - prompt-like steps are awaited until pi is idle; `/compact` is `ctx.compact()` wrapped in a promise;
 *   `/readonly`, `/handoff` and `/notebook` call the same functions as their slash commands;
 * - after an iteration with more to go, `ctx.newSession({ setup, withSession })` resets everything; `setup` writes
 *   the snapshot into the new session and `withSession` hands only the fresh context and the plain `SequenceRun`
 *   to the new instance (see run-relay.ts). Nothing captured before the reset is used after it.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { matchesKey } from "@earendil-works/pi-tui";
import { requestHandoff } from "../handoff/handoff.ts";
import { EXTENSION_NAME } from "../names.ts";
import { runNotebookCommand } from "../notebook/notebook.ts";
import { isReplacedContext, type ReplacedSessionContext } from "../pi-types.ts";
import { runReadonlyCommand } from "../readonly/readonly.ts";
import type { CairnState } from "../state.ts";
import { substituteArgs } from "./args.ts";
import { currentCatalog } from "./catalog.ts";
import { expandSkill, expandTemplate } from "./expand.ts";
import { position, progressStatus, SEQUENCE_STATUS_KEY } from "./progress.ts";
import { resolveSequence } from "./resolve.ts";
import { createRunControl, type RunControl } from "./run-control.ts";
import { toSnapshotEntry } from "./snapshot.ts";
import { type ResolvedStep, SEQUENCE_SNAPSHOT_TYPE, type SequenceRun, type SequenceSnapshotEntry } from "./types.ts";

export const RUN_OUTCOMES = ["completed", "cancelled", "failed", "handed-off"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

type StepOutcome =
  | { kind: "done" }
  | { kind: "handed-off" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

/**
 * Execute `incoming` from its current position in `ctx`'s session. Returns `handed-off` when the rest of the run
 * continued in a replacement session (by then `ctx` and `state` belong to a finished instance and are not touched).
 */
export async function executeRun(
  ctx: ExtensionCommandContext,
  state: CairnState,
  incoming: SequenceRun,
): Promise<RunOutcome> {
  const run: SequenceRun = { ...incoming, steps: [...incoming.steps], args: [...incoming.args] };
  const control = createRunControl(run.id);
  state.sequence.activeRun = run;
  state.runControl = control;
  const stopListening = ctx.ui.onTerminalInput((data) => {
    // Esc also interrupts the current turn in pi; the run stops at the next step boundary.
    if (matchesKey(data, "escape")) control.cancel("Esc pressed");
    return undefined;
  });

  let outcome: RunOutcome = "failed";
  try {
    outcome = await runFromPosition(ctx, state, run, control);
  } finally {
    state.sequence.activeRun = null;
    state.runControl = null;
  }
  // After a replacement this instance's context is stale; the successor owns the UI.
  if (outcome === "handed-off" || control.sessionEnded) return outcome;
  stopListening();
  ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
  return outcome;
}

/** Run the rest of the current iteration, then finish or hand the next iteration to a fresh session. */
async function runFromPosition(
  ctx: ExtensionCommandContext,
  state: CairnState,
  run: SequenceRun,
  control: RunControl,
): Promise<RunOutcome> {
  // Resolved afresh whenever a run enters an instance: at the start, and at the start of every later iteration
  // (always in a new instance). Templates, skills and commands may have changed in between.
  const resolution = resolveSequence(run.steps, currentCatalog(state));
  if (!resolution.ok) {
    const [first] = resolution.failures;
    const when = run.runIndex === 0 && run.stepIndex === 0 ? "before it started" : `at ${position(run)}`;
    return fail(
      ctx,
      control,
      `Sequence aborted ${when}: step ${(first?.index ?? 0) + 1} can no longer run.\n${first?.message ?? ""}`,
    );
  }

  for (; run.stepIndex < run.steps.length; run.stepIndex++) {
    if (control.cancelled) return cancelled(ctx, control, run);
    ctx.ui.setStatus(SEQUENCE_STATUS_KEY, progressStatus(run));
    const step = resolution.steps[run.stepIndex];
    if (!step) return fail(ctx, control, `Sequence aborted at ${position(run)}: the step is missing.`);
    let outcome: StepOutcome;
    try {
      outcome = await executeStep(ctx, state, step, run, control);
    } catch (error) {
      outcome = { kind: "failed", message: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.kind === "handed-off") return "handed-off";
    if (outcome.kind === "cancelled" || control.cancelled) return cancelled(ctx, control, run);
    if (outcome.kind === "failed") {
      return fail(ctx, control, `Sequence aborted at ${position(run)} (${step.raw}): ${outcome.message}`);
    }
  }

  if (run.runIndex + 1 >= run.totalRuns) {
    ctx.ui.notify(`Sequence finished: ${count(run.totalRuns, "run")} of ${count(run.steps.length, "step")}.`, "info");
    return "completed";
  }
  if (control.cancelled) return cancelled(ctx, control, run);
  const reset = await resetForNextRun(ctx, state, run);
  if (reset === "replaced") return "handed-off";
  const nextRun = `run ${run.runIndex + 2}/${run.totalRuns}`;
  if (reset === "cancelled") {
    ctx.ui.notify(`Sequence cancelled before ${nextRun}: the new session was cancelled.`, "warning");
    return "cancelled";
  }
  return fail(ctx, control, `Sequence stopped before ${nextRun}: pi did not start a new session.`);
}

/**
 * Start the next iteration in a fresh session. `cancelled` when the user or an extension vetoed the reset;
 * `not-replaced` when pi reported success without replacing (command actions not bound), so `ctx` is still live.
 */
async function resetForNextRun(
  ctx: ExtensionCommandContext,
  state: CairnState,
  run: SequenceRun,
): Promise<"replaced" | "cancelled" | "not-replaced"> {
  const next: SequenceRun = { ...run, runIndex: run.runIndex + 1, stepIndex: 0 };
  const snapshot = snapshotOf(state, run);
  const relay = state.services.relay;
  let replaced = false;
  const result = await ctx.newSession({
    setup: async (sessionManager) => {
      sessionManager.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot);
    },
    withSession: async (fresh) => {
      replaced = true;
      await continueIn(relay, fresh, next);
    },
  });
  if (result.cancelled) return "cancelled";
  return replaced ? "replaced" : "not-replaced";
}

/** The snapshot a replacement session receives: the recorded sequence this run executes. */
function snapshotOf(state: CairnState, run: SequenceRun): SequenceSnapshotEntry {
  const recorded = state.sequence.lastRecorded;
  if (recorded && recorded.id === run.sequenceId) return toSnapshotEntry(recorded);
  return { version: 1, sequenceId: run.sequenceId, steps: [...run.steps], updatedAt: state.services.now() };
}

async function continueIn(
  relay: CairnState["services"]["relay"],
  fresh: ReplacedSessionContext,
  run: SequenceRun,
): Promise<void> {
  const delivered = await relay.deliver(fresh, run);
  if (!delivered) {
    fresh.ui.notify(
      `Sequence aborted at ${position(run)}: the new session has no running ${EXTENSION_NAME} extension to continue it.`,
      "error",
    );
  }
}

async function executeStep(
  ctx: ExtensionCommandContext,
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
      return sendPrompt(ctx, state, await expandTemplate(step.sourcePath, fill(step.args)), control);
    case "skill":
      return sendPrompt(ctx, state, await expandSkill(step.name, step.sourcePath, fill(step.args)), control);
    case "compact":
      await ctx.waitForIdle();
      await compact(ctx, step.instructions === undefined ? undefined : fill(step.instructions));
      return { kind: "done" };
    case "agenticodingCommand":
      return runOwnCommand(ctx, state, step.name, fill(step.args), run);
  }
}

async function runOwnCommand(
  ctx: ExtensionCommandContext,
  state: CairnState,
  name: "readonly" | "handoff" | "notebook",
  args: string,
  run: SequenceRun,
): Promise<StepOutcome> {
  if (name === "readonly") {
    const result = await runReadonlyCommand(ctx, state, args);
    return result.ok ? { kind: "done" } : { kind: "failed", message: result.message };
  }
  if (name === "notebook") {
    const result = await runNotebookCommand(ctx, state, args);
    return result.ok ? { kind: "done" } : { kind: "failed", message: result.message };
  }
  const after: SequenceRun = { ...run, stepIndex: run.stepIndex + 1 };
  const snapshot = snapshotOf(state, run);
  const relay = state.services.relay;
  const result = await requestHandoff(ctx, state, args, {
    setup: (sessionManager) => {
      sessionManager.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot);
    },
    continueWith: (fresh) => continueIn(relay, fresh, after),
  });
  if (result.status === "started") return { kind: "handed-off" };
  return { kind: "failed", message: result.message ?? `handoff ${result.status}` };
}

/** Send a prompt and wait until pi is idle again; report how the turn ended. */
async function sendPrompt(
  ctx: ExtensionCommandContext,
  state: CairnState,
  text: string,
  control: RunControl,
): Promise<StepOutcome> {
  await ctx.waitForIdle();
  const before = ctx.sessionManager.getLeafId();
  if (isReplacedContext(ctx)) {
    await Promise.race([ctx.sendUserMessage(text), control.whenCancelled]);
  } else {
    if (!ctx.model) return { kind: "failed", message: "no model is selected." };
    const turn = state.turns.nextTurn();
    state.api.sendUserMessage(text);
    await Promise.race([turn, control.whenCancelled]);
  }
  if (control.cancelled) {
    ctx.abort();
    await ctx.waitForIdle();
    return { kind: "cancelled" };
  }
  await ctx.waitForIdle();
  return turnOutcome(ctx, before);
}

/** How the turn started after entry `before` ended: its last assistant message's stop reason. */
function turnOutcome(ctx: ExtensionCommandContext, before: string | null): StepOutcome {
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

function compact(ctx: ExtensionCommandContext, customInstructions: string | undefined): Promise<void> {
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

function cancelled(ctx: ExtensionCommandContext, control: RunControl, run: SequenceRun): RunOutcome {
  if (!control.sessionEnded) ctx.ui.notify(`Sequence cancelled at ${position(run)}.`, "warning");
  return "cancelled";
}

function fail(ctx: ExtensionCommandContext, control: RunControl, message: string): RunOutcome {
  if (control.sessionEnded) return "cancelled";
  ctx.ui.notify(message, "error");
  return "failed";
}
