/**
 * A fake `ctx.newSession()` for unit tests, following pi's order: `setup` runs against a real in-memory
 * SessionManager, then (with `extension`) a new extension instance starts on a fresh fake `pi` and gets
 * `session_start` with reason "new", then `withSession` gets a fresh context. The previous instance (named with
 * `serving`, or started here) gets `session_shutdown` first and its `pi` throws pi's stale-context error from then on. Prompts play whole turns: the instance sees
 * `agent_start` and `agent_settled` around the user message and a reply.
 */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import type { ExtensionCommandContext, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import type { ReplacedSessionContext } from "../../../src/pi/pi-types.ts";
import { cairnCommands, createFakeContext, createFakePi, type FakeContext, type FakePi } from "./fake-pi.ts";

export interface ReplacementSession {
  session: SessionManager;
  fresh: FakeContext;
  /** Every prompt sent in this session, by the extension or through the fresh context. */
  sent: string[];
  parentSession: string | undefined;
  /** The extension instance serving this session, when `extension` was given. */
  pi: FakePi | undefined;
}

export interface FakeReplacement {
  newSession: ExtensionCommandContext["newSession"];
  sessions: ReplacementSession[];
  /** Name the instance serving the current session: it is shut down and goes stale at the next replacement. */
  serving(pi: FakePi): void;
}

export interface FakeReplacementOptions {
  /** The extension pi starts in every new session. */
  extension?: ExtensionFactory;
  reply?: (prompt: string) => string;
}

export function createFakeReplacement(options: FakeReplacementOptions = {}): FakeReplacement {
  const sessions: ReplacementSession[] = [];
  let current: FakePi | undefined;
  const reply = options.reply ?? ((prompt: string) => `ok: ${prompt}`);

  const newSession: ExtensionCommandContext["newSession"] = async (newOptions) => {
    if (current) {
      await current.emit("session_shutdown", { type: "session_shutdown", reason: "new" }, createFakeContext().ctx);
      current.retire();
    }
    const session = SessionManager.inMemory("/project");
    await newOptions?.setup?.(session);
    const fresh = createFakeContext({ session, newSession, withModel: true });
    const sent: string[] = [];
    const replacement: ReplacementSession = {
      session,
      fresh,
      sent,
      parentSession: newOptions?.parentSession,
      pi: undefined,
    };
    const turn = (text: string) => {
      sent.push(text);
      session.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
      session.appendMessage(fauxAssistantMessage(reply(text)));
    };
    if (options.extension) {
      const pi = createFakePi({
        session,
        commandList: cairnCommands(),
        // pi's sendUserMessage returns before the turn starts.
        onUserMessage: (text) => {
          void (async () => {
            await Promise.resolve();
            await pi.emit("agent_start", { type: "agent_start" }, fresh.ctx);
            turn(text);
            await pi.emit("agent_settled", { type: "agent_settled" }, fresh.ctx);
          })();
        },
      });
      await options.extension(pi.api);
      replacement.pi = pi;
      current = pi;
      await pi.emit("session_start", { type: "session_start", reason: "new" }, fresh.ctx);
    }
    sessions.push(replacement);
    const replaced: ReplacedSessionContext = Object.assign(fresh.ctx, {
      sendMessage: async () => {},
      sendUserMessage: async (content: unknown) => {
        turn(String(content));
      },
    });
    await newOptions?.withSession?.(replaced);
    return { cancelled: false };
  };
  return {
    newSession,
    sessions,
    serving(pi) {
      current = pi;
    },
  };
}
