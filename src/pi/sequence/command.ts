/**
 * `/sequence [args]`: restore, record or edit a sequence, ask how many times to run it, and run it. The arguments
 * become the run's `$1`, `$@`… for every step. Typed while a run is executing, `/sequence` offers to cancel it.
 */
import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";
import { splitArgs } from "./args.ts";
import { currentCatalog } from "./catalog.ts";
import { position } from "./progress.ts";
import { recordSequence } from "./recorder.ts";
import { resolveSequence } from "./resolve.ts";
import { executeRun } from "./runner.ts";
import { toSnapshotEntry } from "./snapshot.ts";
import { type RecordedSequence, SEQUENCE_SNAPSHOT_TYPE, type SequenceRun } from "./types.ts";

export const RESTORE_CHOICES = ["Run", "Edit", "Start new", "Cancel"] as const;
export const RUN_COUNT_TITLE = "Run this sequence how many times? [1]";
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
  if (active) {
    if (await ctx.ui.confirm("Cancel the running sequence?", `It is at ${position(active)}.`)) {
      state.runControl?.cancel("cancelled with /sequence");
      ctx.abort();
    }
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
  const totalRuns = await askRunCount(ctx);
  if (totalRuns === undefined) {
    ctx.ui.notify("Sequence not started.", "info");
    return;
  }
  const run: SequenceRun = {
    id: state.services.newId(),
    sequenceId: sequence.id,
    steps: [...sequence.steps],
    args: splitArgs(args),
    totalRuns,
    runIndex: 0,
    stepIndex: 0,
  };
  await executeRun(ctx, state, run);
}

/** The sequence to run: the restored one, an edited copy, or a new recording (persisted as a snapshot). */
async function chooseSequence(ctx: ExtensionCommandContext, state: CairnState): Promise<RecordedSequence | undefined> {
  const last = state.sequence.lastRecorded;
  let choice: string | undefined = "Start new";
  if (last) choice = await ctx.ui.select("Restore last sequence?", [...RESTORE_CHOICES]);
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
