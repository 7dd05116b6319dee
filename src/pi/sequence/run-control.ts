/**
 * How an extension instance holds the run it owns. Lives next to the plain `SequenceRun` data and never crosses a
 * session reset: the instance that continues a run creates its own.
 */
import type { RunRequest } from "./run-records.ts";

/** Cancellation reason used when the instance's session shut down under the run: its context is stale by then. */
export const SESSION_ENDED = "session ended";

/**
 * - `executing`: this instance is running the run's steps;
 * - `awaiting`: the iteration asked for a new session, which the command that drives the run is making;
 * - `paused`: the iteration asked for a new session but no command is there to make one (after `/reload`);
 *   `/sequence` continues it.
 */
export const RUN_STATUSES = ["executing", "awaiting", "paused"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunControl {
  readonly runId: string;
  readonly cancelled: boolean;
  readonly reason: string | undefined;
  /** True when the session shut down: the run must stop without touching its (now stale) context. */
  readonly sessionEnded: boolean;
  /** Settles when `cancel()` is called, so waits can race against it. */
  readonly whenCancelled: Promise<void>;
  cancel(reason: string): void;
  status: RunStatus;
  /** Whether a command context acts on the run's session changes (else the run pauses for `/sequence`). */
  supervised: boolean;
  /** The session change the run waits for while `awaiting` or `paused`. */
  pending: RunRequest | undefined;
  /** A handoff direction still to be sent before the current step (see `IterationStart.direction`). */
  direction: string | undefined;
  /** Settles with the request the executing iteration ended with. */
  readonly ended: Promise<RunRequest>;
  end(request: RunRequest): void;
}

export function createRunControl(runId: string, supervised: boolean): RunControl {
  let settleCancelled: () => void = () => {};
  const whenCancelled = new Promise<void>((settle) => {
    settleCancelled = settle;
  });
  let settleEnded: (request: RunRequest) => void = () => {};
  const ended = new Promise<RunRequest>((settle) => {
    settleEnded = settle;
  });
  let cancelled = false;
  let reason: string | undefined;
  return {
    runId,
    get cancelled() {
      return cancelled;
    },
    get reason() {
      return reason;
    },
    get sessionEnded() {
      return reason === SESSION_ENDED;
    },
    whenCancelled,
    cancel(why) {
      if (cancelled) return;
      cancelled = true;
      reason = why;
      settleCancelled();
    },
    status: "executing",
    supervised,
    pending: undefined,
    direction: undefined,
    ended,
    end: (request) => settleEnded(request),
  };
}
