/**
 * Waiting for a prompt sent with `pi.sendUserMessage()` to finish. That call returns before the turn starts, and
 * `ctx.waitForIdle()` resolves at once while pi is still preparing the prompt, so the wait is keyed to pi's own
 * lifecycle events instead: a waiter settles at the first `agent_settled` after an `agent_start`.
 */

export interface TurnWatch {
  /** A promise for the end of the next turn; call before sending the prompt. */
  nextTurn(): Promise<void>;
  /** Wire to `agent_start`. */
  started(): void;
  /** Wire to `agent_settled`. */
  settled(): void;
}

export function createTurnWatch(): TurnWatch {
  const waiters: Array<{ started: boolean; resolve: () => void }> = [];
  return {
    nextTurn() {
      return new Promise<void>((resolve) => {
        waiters.push({ started: false, resolve });
      });
    },
    started() {
      for (const waiter of waiters) waiter.started = true;
    },
    settled() {
      for (let index = waiters.length - 1; index >= 0; index--) {
        const waiter = waiters[index];
        if (!waiter?.started) continue;
        waiters.splice(index, 1);
        waiter.resolve();
      }
    },
  };
}
