/**
 * Session changes for a sequence run: the reset before each later iteration and `/handoff` steps. pi lets only a
 * command context start a new session, and hands the replacement session's context only to the `withSession`
 * callback of the call that started it. So the command that started the run (or continued it with `/sequence`)
 * makes the first session change, and each `withSession` makes the next: it follows the run through the records
 * the new session's own extension instance writes (see run-records.ts) and acts when the iteration there asks for
 * a new session.
 *
 * Nothing but plain data crosses a session change: `setup` writes the snapshot and a `start` record into the new
 * session, and the instance there claims it on `session_start`. The code here touches only the context it was given
 * and injected services, never another instance's `pi` or state.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { handOff } from "../handoff/handoff.ts";
import { EXTENSION_NAME } from "../names.ts";
import { rebuildPages } from "../notebook/pages.ts";
import type { CairnServices } from "../state.ts";
import { position, SEQUENCE_STATUS_KEY } from "./progress.ts";
import { latestRunRecord, pendingRequest, type RunRequest, runRecord, SEQUENCE_RUN_TYPE } from "./run-records.ts";
import { latestSnapshot, toSnapshotEntry } from "./snapshot.ts";
import { SEQUENCE_SNAPSHOT_TYPE, type SequenceRun, type SequenceSnapshotEntry } from "./types.ts";

/**
 * How often a `withSession` callback looks at the records of the session it follows. pi has no event that reaches
 * a command context from another extension instance, so the records are read from the session's branch; the check
 * is a walk over in-memory entries.
 */
export const FOLLOW_INTERVAL_MS = 100;

/** Called when a session change did not happen, so the run ended where it was (the caller records that). */
export type StoppedHandler = (kind: "cancelled" | "failed") => void;

/**
 * Make the session change `request` asks for; the run then continues in the new session. A `/reload` while the
 * change is being prepared (a brief can take a while) makes `ctx` stale: the run then belongs to the instance after
 * the reload, which holds it paused (see handover.ts), and this returns quietly.
 */
export async function driveRun(
  ctx: ExtensionCommandContext,
  services: CairnServices,
  request: RunRequest,
  onStopped?: StoppedHandler,
): Promise<void> {
  try {
    if (request.kind === "reset") await resetForNextRun(ctx, services, request.run, onStopped);
    if (request.kind === "handoff") await handOffForRun(ctx, services, request.run, request.direction, onStopped);
  } catch (error) {
    if (isStaleContextError(error)) return;
    throw error;
  }
}

async function resetForNextRun(
  ctx: ExtensionCommandContext,
  services: CairnServices,
  next: SequenceRun,
  onStopped: StoppedHandler | undefined,
): Promise<void> {
  const snapshot = snapshotFor(ctx, next, services);
  let replaced = false;
  const result = await ctx.newSession({
    setup: async (sessionManager) => {
      sessionManager.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot);
      sessionManager.appendCustomEntry(SEQUENCE_RUN_TYPE, runRecord("start", next, services.now()));
    },
    withSession: async (fresh) => {
      replaced = true;
      await followRun(fresh, services, next);
    },
  });
  // `ctx` is usable only when no replacement happened: cancelled, or pi had no session control bound.
  if (replaced) return;
  const nextRun = `run ${next.runIndex + 1}/${next.totalRuns}`;
  ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
  if (result.cancelled) {
    ctx.ui.notify(`Sequence cancelled before ${nextRun}: the new session was cancelled.`, "warning");
    onStopped?.("cancelled");
  } else {
    ctx.ui.notify(`Sequence stopped before ${nextRun}: pi did not start a new session.`, "error");
    onStopped?.("failed");
  }
}

async function handOffForRun(
  ctx: ExtensionCommandContext,
  services: CairnServices,
  run: SequenceRun,
  direction: string,
  onStopped: StoppedHandler | undefined,
): Promise<void> {
  const snapshot = snapshotFor(ctx, run, services);
  const pages = rebuildPages(ctx.sessionManager.getBranch());
  const result = await handOff(ctx, { briefs: services.briefs, pages }, direction, {
    sendDirection: false,
    // The brief can take a while; the run may have been cancelled in the meantime.
    stillWanted: () => latestRunRecord(ctx.sessionManager.getBranch(), run.id)?.phase === "handoff",
    setup: (sessionManager) => {
      sessionManager.appendCustomEntry(SEQUENCE_SNAPSHOT_TYPE, snapshot);
      // The new session sends the direction first, then goes on after the /handoff step.
      sessionManager.appendCustomEntry(SEQUENCE_RUN_TYPE, runRecord("start", run, services.now(), { direction }));
    },
    continueWith: (fresh) => followRun(fresh, services, run),
  });
  if (result.status === "started") return;
  ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
  if (result.status === "cancelled") {
    onStopped?.("cancelled");
    return;
  }
  const raw = run.steps[run.stepIndex] ?? "/handoff";
  ctx.ui.notify(
    `Sequence aborted at ${position(run)} (${raw}): ${result.message ?? `handoff ${result.status}`}`,
    "error",
  );
  onStopped?.("failed");
}

/**
 * Follow `run` in the session `ctx` belongs to, from its `withSession` callback: wait for the instance there to ask
 * for the next session change and make it. Returns when the run ends there, or when that session is itself
 * replaced or reloaded (then `ctx` is stale and the instances after it own the run).
 */
async function followRun(ctx: ExtensionCommandContext, services: CairnServices, run: SequenceRun): Promise<void> {
  try {
    const claimed = latestRunRecord(ctx.sessionManager.getBranch(), run.id);
    if (!claimed || claimed.phase === "start") {
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
      ctx.ui.notify(
        `Sequence aborted at ${position(run)}: the new session has no running ${EXTENSION_NAME} extension to continue it.`,
        "error",
      );
      return;
    }
    for (;;) {
      const record = latestRunRecord(ctx.sessionManager.getBranch(), run.id);
      if (!record || !["start", "running"].includes(record.phase)) {
        const request = record && record.phase !== "interrupted" ? pendingRequest(record) : undefined;
        if (request) await driveRun(ctx, services, request);
        return;
      }
      await delay(FOLLOW_INTERVAL_MS);
    }
  } catch (error) {
    if (isStaleContextError(error)) return;
    throw error;
  }
}

/** The snapshot a new session receives: the recorded sequence this run executes, as the branch has it. */
function snapshotFor(ctx: ExtensionCommandContext, run: SequenceRun, services: CairnServices): SequenceSnapshotEntry {
  const recorded = latestSnapshot(ctx.sessionManager.getBranch());
  if (recorded && recorded.id === run.sequenceId) return toSnapshotEntry(recorded);
  return { version: 1, sequenceId: run.sequenceId, steps: [...run.steps], updatedAt: services.now() };
}

/** pi's error for a context used after its session was replaced or reloaded. */
export function isStaleContextError(error: unknown): boolean {
  return error instanceof Error && /\bstale after session replacement or reload\b/.test(error.message);
}
