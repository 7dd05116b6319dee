/** A driver whose turns the test steers by hand: emit events, raise prompts, end the turn. */
import type { DriverSession, LiveDriver, TurnContext, TurnResult } from "../../../src/live/drivers/types.ts";

export interface FakeTurn {
  text: string;
  context: TurnContext;
  finish(result?: TurnResult): void;
  fail(error: Error): void;
}

export interface FakeDriver extends LiveDriver {
  sessions: FakeSession[];
  /** Resolves with the next turn the controller starts (or the current one if it is already running). */
  nextTurn(): Promise<FakeTurn>;
  readonly currentTurn: FakeTurn | null;
  failNextOpen(error: Error): void;
}

export interface FakeSession extends DriverSession {
  interrupts: number;
  closed: boolean;
}

export function createFakeDriver(options: { endOnInterrupt?: boolean } = {}): FakeDriver {
  const endOnInterrupt = options.endOnInterrupt ?? true;
  const sessions: FakeSession[] = [];
  let current: FakeTurn | null = null;
  let waiters: Array<(t: FakeTurn) => void> = [];
  let openError: Error | null = null;
  let counter = 0;

  const driver: FakeDriver = {
    name: "scripted",
    cwd: "/tmp/fake",
    sessions,
    get currentTurn() {
      return current;
    },
    nextTurn() {
      if (current) return Promise.resolve(current);
      return new Promise((resolve) => waiters.push(resolve));
    },
    failNextOpen(error) {
      openError = error;
    },
    async open(o) {
      if (openError) {
        const e = openError;
        openError = null;
        throw e;
      }
      const s: FakeSession = {
        sessionId: o?.resumeSessionId ?? `fake-${++counter}`,
        model: "fake-model",
        interrupts: 0,
        closed: false,
        runTurn(text, context) {
          return new Promise<TurnResult>((resolve, reject) => {
            const t: FakeTurn = {
              text,
              context,
              finish: (r = { status: "completed" }) => {
                if (current === t) current = null;
                resolve(r);
              },
              fail: (e) => {
                if (current === t) current = null;
                reject(e);
              },
            };
            current = t;
            const w = waiters;
            waiters = [];
            for (const resolveWaiter of w) resolveWaiter(t);
          });
        },
        async interrupt() {
          s.interrupts++;
          if (endOnInterrupt && current) current.finish({ status: "interrupted" });
        },
        async close() {
          s.closed = true;
        },
      };
      sessions.push(s);
      return s;
    },
  };
  return driver;
}
