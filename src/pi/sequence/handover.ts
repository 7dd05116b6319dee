/**
 * A run entering and leaving an extension instance. pi makes a new instance for every session replacement and
 * `/reload`; the run's position travels as data on the session tree (run-records.ts), and each instance decides
 * from its own branch on `session_start` whether a run is its to continue:
 *
 * - after `newSession`, a `start` record written by `setup` is claimed and executed here, while the previous
 *   session's `withSession` callback makes the session changes the run asks for (controller.ts);
 * - after `/reload`, an `interrupted` record written by the instance that stopped is claimed. Every command context
 *   is stale after a reload, so nothing can start a new session for the run: it executes the rest of its iteration
 *   and then pauses until `/sequence` continues it.
 *
 * Startup, resume and fork leave runs where they are: a sequence never starts sending prompts on its own when the
 * user opens an old session.
 */
import type { ExtensionContext, SessionShutdownEvent, SessionStartEvent } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../common/errors.ts";
import type { CairnState } from "../state.ts";
import { isStaleContextError } from "./controller.ts";
import { createRunControl, SESSION_ENDED } from "./run-control.ts";
import {
  latestRunRecord,
  pendingRequest,
  type RunRequest,
  runRecord,
  SEQUENCE_RUN_TYPE,
  type SequenceRunEntry,
} from "./run-records.ts";
import { executeIteration, pauseRun } from "./runner.ts";

/** On `session_start`: take over the run the branch hands to this instance, if any. */
export function claimRun(reason: SessionStartEvent["reason"], ctx: ExtensionContext, state: CairnState): void {
  const record = latestRunRecord(ctx.sessionManager.getBranch());
  if (!record) return;
  if (reason === "new" && record.phase === "start") {
    startDetached(ctx, state, record, true);
  } else if (reason === "reload" && record.phase === "interrupted") {
    const pending = pendingRequest(record);
    if (pending) pauseClaimed(ctx, state, pending);
    else startDetached(ctx, state, record, false);
  }
}

/** On `session_shutdown`: stop the run here; before a reload, leave it on the branch for the next instance. */
export function leaveRun(reason: SessionShutdownEvent["reason"], state: CairnState): void {
  const control = state.runControl;
  const run = state.sequence.activeRun;
  if (!control || !run) return;
  if (reason === "reload") {
    const pending = control.pending;
    const direction = pending?.kind === "handoff" ? pending.direction : control.direction;
    const extra: Pick<SequenceRunEntry, "direction" | "pending"> = {
      ...(direction !== undefined ? { direction } : {}),
      ...(pending && (pending.kind === "reset" || pending.kind === "handoff") ? { pending: pending.kind } : {}),
    };
    state.api.appendEntry(SEQUENCE_RUN_TYPE, runRecord("interrupted", run, state.services.now(), extra));
  } else if (control.status !== "awaiting") {
    // The user left the session while the run was executing or paused here.
    state.api.appendEntry(SEQUENCE_RUN_TYPE, runRecord("cancelled", run, state.services.now()));
  }
  control.cancel(SESSION_ENDED);
  state.sequence.activeRun = null;
  state.runControl = null;
}

/**
 * Execute the claimed iteration once pi has finished starting the session: `session_start` is emitted while pi is
 * still binding extensions (others may not have started yet), and the claim itself is recorded synchronously.
 */
function startDetached(ctx: ExtensionContext, state: CairnState, record: SequenceRunEntry, supervised: boolean): void {
  const ready = new Promise<void>((resolve) => setImmediate(resolve));
  const start = {
    run: record.run,
    supervised,
    ready,
    ...(record.direction !== undefined ? { direction: record.direction } : {}),
  };
  executeIteration(ctx, state, start).catch((error: unknown) => {
    if (isStaleContextError(error)) return;
    ctx.ui.notify(`Sequence stopped: ${errorMessage(error)}`, "error");
  });
}

function pauseClaimed(ctx: ExtensionContext, state: CairnState, pending: RunRequest): void {
  const control = createRunControl(pending.run.id, false);
  state.runControl = control;
  pauseRun(ctx, state, control, pending);
}
