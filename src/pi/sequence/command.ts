/**
 * `/sequence [args]`: restore, record or edit a sequence, ask how many times to run it, and run it. The arguments
 * become the run's `$1`, `$@`… for every step. Typed while a run is executing, `/sequence` offers to cancel it;
 * typed while a run is paused (after `/reload`), it offers to continue it.
 */
import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";
import { joinArgs, splitArgs, usesArguments } from "./args.ts";
import { currentCatalog } from "./catalog.ts";
import { driveRun, type StoppedHandler } from "./controller.ts";
import { position, SEQUENCE_STATUS_KEY, SEQUENCE_WIDGET_KEY, sequenceLines } from "./progress.ts";
import { recordSequence } from "./recorder.ts";
import { resolveSequence } from "./resolve.ts";
import type { RunControl } from "./run-control.ts";
import { isSessionChange, lastRunArgs, requestRecord, runRecord, SEQUENCE_RUN_TYPE } from "./run-records.ts";
import { executeIteration } from "./runner.ts";
import { toSnapshotEntry } from "./snapshot.ts";
import { type RecordedSequence, SEQUENCE_SNAPSHOT_TYPE, type SequenceRun } from "./types.ts";

export const RESTORE_CHOICES = ["Run", "Edit", "Start new", "Cancel"] as const;
export const PAUSED_CHOICES = ["Continue", "Cancel the sequence"] as const;
export const RUN_COUNT_TITLE = "Run this sequence how many times? [1]";
export const ARGS_TITLE = "Arguments for $@ in the steps?";
export const MAX_RUNS = 1000;

export function registerSequence(pi: ExtensionAPI, state: CairnState): void {
  pi.registerCommand("sequence", {
    description: "Record a sequence of prompts and commands, then run it N times with a fresh session per run",
    handler: async (args, ctx) => {
      await runSequence(ctx, state, args);
    },
  });
}

export async function runSequence(ctx: ExtensionCommandContext, state: CairnState, args: string): Promise<void> {
  const active = state.sequence.activeRun;
  const control = state.runControl;
  if (active && control) {
    await handleActiveRun(ctx, state, active, control);
    return;
  }
  if (!ctx.hasUI) {
    ctx.ui.notify("/sequence needs pi's interactive UI.", "error");
    return;
  }

  const sequence = await chooseSequence(ctx, state);
  if (!sequence) return;
  const resolution = resolveSequence(sequence.steps, currentCatalog(state));
  if (!resolution.ok) {
    const lines = resolution.failures.map((failure) => `Step ${failure.index + 1}: ${failure.message}`);
    ctx.ui.notify(`The sequence cannot run:\n${lines.join("\n")}`, "error");
    return;
  }
  // The steps stay in view while the run is set up: what will run, with which arguments, how many times.
  ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, sequenceLines(sequence.steps));
  const runArgs = await chooseArgs(ctx, sequence, args);
  const totalRuns = runArgs === undefined ? undefined : await askRunCount(ctx);
  ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, undefined);
  if (runArgs === undefined || totalRuns === undefined) {
    ctx.ui.notify("Sequence not started.", "info");
    return;
  }
  const run: SequenceRun = {
    id: state.services.newId(),
    sequenceId: sequence.id,
    steps: [...sequence.steps],
    args: runArgs,
    totalRuns,
    runIndex: 0,
    stepIndex: 0,
  };
  const request = await executeIteration(ctx, state, { run, supervised: true });
  if (isSessionChange(request)) await driveRun(ctx, state.services, request, stoppedHere(state));
}

/** `/sequence` while this instance holds a run: continue a paused one, or offer to cancel it. */
async function handleActiveRun(
  ctx: ExtensionCommandContext,
  state: CairnState,
  run: SequenceRun,
  control: RunControl,
): Promise<void> {
  if (control.status === "paused" && control.pending) {
    const choice = await ctx.ui.select(`Sequence paused at ${position(run)}: continue it?`, [...PAUSED_CHOICES]);
    if (choice === "Continue") {
      // This command now makes the session changes the run asks for.
      control.status = "awaiting";
      control.supervised = true;
      // The branch says the run waits for this session change again, not that it was interrupted.
      const record = requestRecord(control.pending, state.services.now());
      if (record) state.api.appendEntry(SEQUENCE_RUN_TYPE, record);
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, `⟳ sequence · starting a new session for ${position(run)}`);
      await driveRun(ctx, state.services, control.pending, stoppedHere(state));
    } else if (choice === "Cancel the sequence") {
      endHere(state, control, "cancelled");
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
      ctx.ui.notify(`Sequence cancelled at ${position(run)}.`, "warning");
    }
    return;
  }
  if (await ctx.ui.confirm("Cancel the running sequence?", `It is at ${position(run)}.`)) {
    if (control.status === "executing") {
      control.cancel("cancelled with /sequence");
      ctx.abort();
      return;
    }
    endHere(state, control, "cancelled");
    ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
    ctx.ui.notify(`Sequence cancelled at ${position(run)}.`, "warning");
    return;
  }
  if (control.status === "executing" && !control.supervised) {
    // Left running after /reload: this command can make the session changes it will ask for, so it need not pause.
    control.supervised = true;
    const request = await control.ended;
    if (isSessionChange(request)) await driveRun(ctx, state.services, request, stoppedHere(state));
  }
}

/** Records the end of a run this instance holds when a session change it asked for did not happen. */
function stoppedHere(state: CairnState): StoppedHandler {
  const control = state.runControl;
  return (kind) => {
    if (control && state.runControl === control) endHere(state, control, kind);
  };
}

function endHere(state: CairnState, control: RunControl, kind: "cancelled" | "failed"): void {
  const run = state.sequence.activeRun;
  if (run) state.api.appendEntry(SEQUENCE_RUN_TYPE, runRecord(kind, run, state.services.now()));
  control.cancel(kind);
  state.sequence.activeRun = null;
  state.runControl = null;
}

/** The sequence to run: the restored one, an edited copy, or a new recording (persisted as a snapshot). */
async function chooseSequence(ctx: ExtensionCommandContext, state: CairnState): Promise<RecordedSequence | undefined> {
  const last = state.sequence.lastRecorded;
  let choice: string | undefined = "Start new";
  if (last) {
    // The prompt's title is the seed's; the steps it would run are shown above it.
    ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, sequenceLines(last.steps));
    choice = await ctx.ui.select("Restore last sequence?", [...RESTORE_CHOICES]);
    ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, undefined);
  }
  if (choice === "Run" && last) return last;
  if (choice !== "Edit" && choice !== "Start new") return undefined;

  if (ctx.mode !== "tui") {
    ctx.ui.notify("Recording a sequence needs pi's interactive terminal UI.", "error");
    return undefined;
  }
  const editing = choice === "Edit" && last ? last : undefined;
  const steps = await recordSequence(ctx, state, editing?.steps ?? []);
  if (!steps) return undefined;
  const recorded: RecordedSequence = {
    version: 1,
    id: editing?.id ?? state.services.newId(),
    steps,
    updatedAt: state.services.now(),
  };
  state.api.appendEntry(SEQUENCE_SNAPSHOT_TYPE, toSnapshotEntry(recorded));
  state.sequence.lastRecorded = recorded;
  return recorded;
}

/**
 * The run's `$1`, `$@`…: what was typed after `/sequence`; else, when a step uses them, asked for, offering the
 * arguments this sequence last ran with on the branch (an empty answer takes them). Undefined: the user dismissed it.
 */
async function chooseArgs(
  ctx: ExtensionCommandContext,
  sequence: RecordedSequence,
  typed: string,
): Promise<string[] | undefined> {
  if (typed.trim().length > 0 || !usesArguments(sequence.steps)) return splitArgs(typed);
  const last = lastRunArgs(ctx.sessionManager.getBranch(), sequence.id);
  const previous = last && last.length > 0 ? joinArgs(last) : undefined;
  const title = previous ? `${ARGS_TITLE} [${previous}]` : ARGS_TITLE;
  const answer = await ctx.ui.input(title, previous ?? "words for $1, $@ in the steps");
  if (answer === undefined) return undefined;
  return answer.trim().length === 0 ? (last ?? []) : splitArgs(answer);
}

/** Ask until the answer is a whole number in range; an empty answer means 1, a dismissed dialog means no run. */
async function askRunCount(ctx: ExtensionCommandContext): Promise<number | undefined> {
  for (;;) {
    const answer = await ctx.ui.input(RUN_COUNT_TITLE, "1");
    if (answer === undefined) return undefined;
    const text = answer.trim();
    if (text.length === 0) return 1;
    const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (count >= 1 && count <= MAX_RUNS) return count;
    ctx.ui.notify(`Enter a whole number from 1 to ${MAX_RUNS}.`, "error");
  }
}
