/**
 * Cancellation of the run an extension instance is executing. Lives next to the plain `SequenceRun` data and never
 * crosses a session reset: the instance that continues a run creates its own.
 */

/** Cancellation reason used when the instance's session shut down under the run: its context is stale by then. */
export const SESSION_ENDED = "session ended";

export interface RunControl {
  readonly runId: string;
  readonly cancelled: boolean;
  readonly reason: string | undefined;
  /** True when the session shut down: the run must stop without touching its (now stale) context. */
  readonly sessionEnded: boolean;
  /** Settles when `cancel()` is called, so waits can race against it. */
  readonly whenCancelled: Promise<void>;
  cancel(reason: string): void;
}

export function createRunControl(runId: string): RunControl {
  let resolve: () => void = () => {};
  const whenCancelled = new Promise<void>((settle) => {
    resolve = settle;
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
      resolve();
    },
  };
}
