/**
 * The agents whose session-start hook cairn can register in (`cairn hooks`), from their manifests, and the brief
 * such a hook hands the model: the latest work in the session's folder, by any agent, cited and redacted like every
 * answer, within a token budget.
 */
import { CairnError } from "../common/errors.ts";
import type { HookStart, SessionStartHook } from "../readers/agent.ts";
import { HOOK_LOADERS } from "../readers/hooks.ts";
import type { ReadCairn } from "./cairn.ts";

export type { HookStart, SessionStartHook };

export interface HookAgent {
  provider: string;
  name: string;
  hook: SessionStartHook;
}

export const DEFAULT_HOOK_BUDGET = 1500;
export const HOOK_PROVIDERS: readonly string[] = Object.keys(HOOK_LOADERS);

/** One agent's hook, loading nothing else (what a hook's run needs). */
export async function loadHook(provider: string): Promise<SessionStartHook | undefined> {
  return HOOK_LOADERS[provider]?.();
}

/** Every agent with a hook, with the name people know it by. */
export async function hookAgents(): Promise<HookAgent[]> {
  const { AGENTS } = await import("../readers/agents.ts");
  return Promise.all(
    HOOK_PROVIDERS.map(async (provider) => ({
      provider,
      name: AGENTS.find((a) => a.provider === provider)?.name ?? provider,
      hook: (await loadHook(provider)) as SessionStartHook,
    })),
  );
}

export type StartBrief =
  | { kind: "brief"; sessionId: string; text: string }
  | { kind: "none"; why: "no history" | "same session" };

/** The brief for a session starting in `start.cwd`: the latest other session there, or nothing. */
export async function startBrief(app: ReadCairn, start: HookStart, budget: number): Promise<StartBrief> {
  let brief: Awaited<ReturnType<ReadCairn["brief"]>>;
  try {
    brief = await app.brief({ session: "latest", cwd: start.cwd, budget_tokens: budget });
  } catch (error) {
    if (error instanceof CairnError && error.code === "not_found") return { kind: "none", why: "no history" };
    throw error;
  }
  if (brief.session_id === start.sessionId) return { kind: "none", why: "same session" };
  const short = app.shortSessionId(brief.session_id);
  const pointer =
    `(From cairn, before this session began: the latest earlier work in this folder. Each [e:ID] opens with ` +
    `\`cairn show ID\`; \`cairn resume ${short}\` gives the whole brief, \`cairn search <words>\` searches all sessions.)`;
  return { kind: "brief", sessionId: brief.session_id, text: `${pointer}\n\n${brief.text.trim()}\n` };
}
