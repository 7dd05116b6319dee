/**
 * Hands a sequence run to the extension instance that serves a replacement session.
 *
 * pi rebuilds every extension after `ctx.newSession()`: the old `pi` and `ctx` throw, and `withSession` receives a
 * fresh context but not the fresh instance's `pi` or state. Steps such as `/notebook` must run against that new
 * instance (its `appendEntry`, its `getCommands()`, its rehydrated state), so each instance registers itself here
 * under its session id when it starts and leaves when it shuts down. `withSession` then passes only the fresh
 * context and the plain `SequenceRun` to whichever instance serves that session.
 *
 * One relay is created per `createCairnExtension()` call and shared by the instances that factory produces. It
 * holds no session state: only the routes of live instances.
 */
import type { ReplacedSessionContext } from "./pi-types.ts";
import type { SequenceRun } from "./sequence/types.ts";

export interface RunReceiver {
  continueRun(ctx: ReplacedSessionContext, run: SequenceRun): Promise<void>;
}

export interface RunRelay {
  register(sessionId: string, receiver: RunReceiver): void;
  /** Removes the route only if it still points at `receiver` (a reload registers the successor first). */
  unregister(sessionId: string, receiver: RunReceiver): void;
  /** Continue `run` in the instance serving `ctx`'s session; false when no instance serves it. */
  deliver(ctx: ReplacedSessionContext, run: SequenceRun): Promise<boolean>;
}

export function createRunRelay(): RunRelay {
  const routes = new Map<string, RunReceiver>();
  return {
    register(sessionId, receiver) {
      routes.set(sessionId, receiver);
    },
    unregister(sessionId, receiver) {
      if (routes.get(sessionId) === receiver) routes.delete(sessionId);
    },
    async deliver(ctx, run) {
      const receiver = routes.get(ctx.sessionManager.getSessionId());
      if (!receiver) return false;
      await receiver.continueRun(ctx, run);
      return true;
    },
  };
}
