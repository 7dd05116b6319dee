/**
 * A fake `ctx.newSession()` for unit tests: it runs `setup` against a real in-memory SessionManager and then
 * `withSession` with a fresh fake context, recording what happened.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import type { ReplacedSessionContext } from "../../../src/pi/pi-types.ts";
import { createFakeContext, type FakeContext } from "./fake-pi.ts";

export interface FakeReplacement {
  newSession: ExtensionCommandContext["newSession"];
  sessions: Array<{ session: SessionManager; fresh: FakeContext; sent: string[]; parentSession: string | undefined }>;
}

export function createFakeReplacement(): FakeReplacement {
  const sessions: FakeReplacement["sessions"] = [];
  const newSession: ExtensionCommandContext["newSession"] = async (options) => {
    const session = SessionManager.inMemory("/project");
    await options?.setup?.(session);
    const fresh = createFakeContext({ session });
    const sent: string[] = [];
    const replaced: ReplacedSessionContext = Object.assign(fresh.ctx, {
      sendMessage: async () => {},
      sendUserMessage: async (content: unknown) => {
        sent.push(String(content));
      },
    });
    sessions.push({ session, fresh, sent, parentSession: options?.parentSession });
    await options?.withSession?.(replaced);
    return { cancelled: false };
  };
  return { newSession, sessions };
}
