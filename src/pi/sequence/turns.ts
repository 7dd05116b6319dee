/**
 * Waiting for pi from an event handler's context, which has `isIdle()` but no `waitForIdle()`. A prompt sent with
 * `pi.sendUserMessage()` returns before its turn starts, so a turn's end is keyed to pi's own lifecycle events: a
 * `nextTurn()` waiter settles at the first `agent_settled` after an `agent_start`. `whenIdle()` re-checks `isIdle()`
 * whenever pi settles a turn or finishes a compaction.
 */

export interface TurnWatch {
  /** A promise for the end of the next turn; call before sending the prompt. */
  nextTurn(): Promise<void>;
  /** Resolves once `isIdle()` holds, checked now and after every settled turn or compaction. */
  whenIdle(isIdle: () => boolean): Promise<void>;
  /** Wire to `agent_start`. */
  started(): void;
  /** Wire to `agent_settled`, `session_compact` and `session_compact_failed`. */
  settled(): void;
}

export function createTurnWatch(): TurnWatch {
  const turns: Array<{ started: boolean; resolve: () => void }> = [];
  const idleChecks = new Set<() => void>();
  return {
    nextTurn() {
      return new Promise<void>((resolve) => {
        turns.push({ started: false, resolve });
      });
    },
    whenIdle(isIdle) {
      if (isIdle()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const check = () => {
          if (!isIdle()) return;
          idleChecks.delete(check);
          resolve();
        };
        idleChecks.add(check);
      });
    },
    started() {
      for (const turn of turns) turn.started = true;
    },
    settled() {
      for (let index = turns.length - 1; index >= 0; index--) {
        const turn = turns[index];
        if (!turn?.started) continue;
        turns.splice(index, 1);
        turn.resolve();
      }
      for (const check of [...idleChecks]) check();
    },
  };
}
