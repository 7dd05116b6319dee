/**
 * A context that behaves like pi's after a session replacement: once `newSession()` has torn the session down,
 * touching anything on the old context throws pi's stale-context error.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";

export const STALE_MESSAGE = "This extension ctx is stale after session replacement or reload.";

export interface StaleGuard {
  ctx: ExtensionCommandContext;
  readonly stale: boolean;
  /** Property names read after the context went stale (each read also threw). */
  staleReads: string[];
}

export function guardAgainstStaleUse(inner: ExtensionCommandContext): StaleGuard {
  let stale = false;
  const staleReads: string[] = [];
  const ctx = new Proxy(inner, {
    get(target, property, receiver) {
      if (stale) {
        staleReads.push(String(property));
        throw new Error(STALE_MESSAGE);
      }
      if (property === "newSession") {
        const newSession: ExtensionCommandContext["newSession"] = (options) =>
          target.newSession({
            ...options,
            // pi invalidates the old instance before running setup.
            setup: async (sessionManager) => {
              stale = true;
              await options?.setup?.(sessionManager);
            },
          });
        return newSession;
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return {
    ctx,
    get stale() {
      return stale;
    },
    staleReads,
  };
}
