/**
 * Plays pi's agent for unit tests of the runner: every user message gets an assistant reply in the session and
 * the turn lifecycle events pi would emit, so the runner's "send, then wait for the turn" path runs as in pi.
 */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import type { SessionManager } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../../../src/pi/state.ts";

export interface ScriptedAgent {
  onUserMessage(text: string): void;
  /** Bind once the state exists (the state's `pi` is created with this agent's callback). */
  attach(state: CairnState, session: SessionManager): void;
  /** Runs inside the next turn, before it settles (e.g. to simulate the user cancelling). */
  duringNextTurn(action: () => Promise<void> | void): void;
  replies: string[];
}

export function createScriptedAgent(reply: (prompt: string) => string = (prompt) => `ok: ${prompt}`): ScriptedAgent {
  let state: CairnState | undefined;
  let session: SessionManager | undefined;
  const pending: Array<() => Promise<void> | void> = [];
  const agent: ScriptedAgent = {
    replies: [],
    attach(boundState, boundSession) {
      state = boundState;
      session = boundSession;
    },
    duringNextTurn(action) {
      pending.push(action);
    },
    onUserMessage(text) {
      if (!state || !session) throw new Error("scripted agent not attached");
      const turnState = state;
      const turnSession = session;
      turnState.turns.started();
      const action = pending.shift();
      void (async () => {
        turnSession.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
        await action?.();
        const answer = reply(text);
        agent.replies.push(answer);
        turnSession.appendMessage(fauxAssistantMessage(answer));
        turnState.turns.settled();
      })();
    },
  };
  return agent;
}
