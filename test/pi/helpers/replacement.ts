/**
 * A fake `ctx.newSession()` for unit tests, following pi's order: `setup` runs against a real in-memory
 * SessionManager, then the replacement "instance" starts (`onStart`), then `withSession` gets a fresh context whose
 * `sendUserMessage` plays a whole turn.
 */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import type { ReplacedSessionContext } from "../../../src/pi/pi-types.ts";
import { createFakeContext, type FakeContext } from "./fake-pi.ts";

export interface ReplacementSession {
  session: SessionManager;
  fresh: FakeContext;
  sent: string[];
  parentSession: string | undefined;
}

export interface FakeReplacement {
  newSession: ExtensionCommandContext["newSession"];
  sessions: ReplacementSession[];
}

export interface FakeReplacementOptions {
  /** The new extension instance starting in the new session (register it, rehydrate its state). */
  onStart?: (replacement: ReplacementSession) => void;
  reply?: (prompt: string) => string;
}

export function createFakeReplacement(options: FakeReplacementOptions = {}): FakeReplacement {
  const sessions: ReplacementSession[] = [];
  const newSession: ExtensionCommandContext["newSession"] = async (newOptions) => {
    const session = SessionManager.inMemory("/project");
    await newOptions?.setup?.(session);
    const fresh = createFakeContext({ session, newSession });
    const sent: string[] = [];
    const replaced: ReplacedSessionContext = Object.assign(fresh.ctx, {
      sendMessage: async () => {},
      sendUserMessage: async (content: unknown) => {
        const text = String(content);
        sent.push(text);
        session.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
        session.appendMessage(fauxAssistantMessage(options.reply?.(text) ?? `ok: ${text}`));
      },
    });
    const replacement = { session, fresh, sent, parentSession: newOptions?.parentSession };
    sessions.push(replacement);
    options.onStart?.(replacement);
    await newOptions?.withSession?.(replaced);
    return { cancelled: false };
  };
  return { newSession, sessions };
}
