/**
 * pi's session-start brief, what `cairn hooks` gives other agents: a new session (pi started, or `/new`) in a folder
 * with history gets a cited brief of the latest earlier work there, by any agent, in its system prompt. It is built
 * while pi starts and waited for at most two seconds at the first prompt; if it is not there by then the session
 * goes on without it, and a brief never enters a session later (the system prompt stays what it was). A resumed,
 * forked or reloaded session, and a startup that continues one, carry their own history: nothing. The folders
 * turned off or on, `CAIRN_HOOKS=off` and the budget are `cairn hooks`' own (docs/hooks.md).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";

/** The system prompt section the brief is given in. */
export const START_BRIEF_SECTION = "cairn-earlier-work";
/** How long the first prompt waits for a brief still being built. */
export const START_BRIEF_WAIT_MS = 2_000;

export function registerStartBrief(pi: ExtensionAPI, state: CairnState): void {
  let pending: Promise<string | null> | null = null;
  let brief: string | null | undefined;

  pi.on("session_start", (event, ctx) => {
    pending = null;
    brief = undefined;
    const source = state.services.startBriefs;
    if (!source || (event.reason !== "startup" && event.reason !== "new")) return;
    if (ctx.sessionManager.getBranch().some((entry) => entry.type === "message")) return;
    pending = source
      .startBrief({
        cwd: ctx.cwd,
        sessionId: ctx.sessionManager.getSessionId(),
        sessionFile: ctx.sessionManager.getSessionFile(),
      })
      .catch(() => null);
  });

  pi.on("before_agent_start", async (event) => {
    if (brief === undefined) brief = pending ? await within(pending, START_BRIEF_WAIT_MS) : null;
    if (brief) event.systemPromptOptions.sections[START_BRIEF_SECTION] = brief;
    return undefined;
  });
}

function within<T>(promise: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
