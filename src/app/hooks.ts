/**
 * The agents whose session-start hook cairn can register in (`cairn hooks`), from their manifests, and the brief
 * such a hook hands the model: the latest work in the session's folder, by any agent, cited and redacted like every
 * answer, within a token budget.
 */
import { CairnError } from "../common/errors.ts";
import type { HookCompanion, HookStart, SessionStartHook } from "../readers/agent.ts";
import { HOOK_LOADERS } from "../readers/hooks.ts";
import type { ReadCairn } from "./cairn.ts";

export type { HookCompanion, HookStart, SessionStartHook };

export interface HookAgent {
  provider: string;
  name: string;
  hook: SessionStartHook;
}

export const DEFAULT_HOOK_BUDGET = 1500;
export const MIN_HOOK_BUDGET = 500;
/** What the line before the brief takes of the budget (about 60 tokens, with room for a longer session id). */
const POINTER_TOKENS = 80;
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
  const { estimateBriefTokens, estimatedTokens } = await import("./brief.ts");
  estimateBriefTokens();
  let brief: Awaited<ReturnType<ReadCairn["brief"]>>;
  try {
    // The budget is a cap here, the line before the brief included: the brief that fits, not a larger one that
    // would validate (the ladder), nor one the ladder looks for at an earlier checkpoint.
    const room = Math.max(MIN_HOOK_BUDGET - POINTER_TOKENS, budget - POINTER_TOKENS);
    brief = await app.brief({ session: "latest", cwd: start.cwd, budget_tokens: room, cap: room, ladder: false });
  } catch (error) {
    if (error instanceof CairnError && error.code === "not_found") return { kind: "none", why: "no history" };
    throw error;
  }
  if (brief.session_id === start.sessionId) return { kind: "none", why: "same session" };
  const short = app.shortSessionId(brief.session_id);
  const pointer =
    `(From cairn, before this session began: the latest earlier work in this folder. Each [e:ID] opens with ` +
    `\`cairn show ID\`; \`cairn resume ${short}\` gives the whole brief, \`cairn search <words>\` searches all sessions.)`;
  const text = withinBudget(`${pointer}\n\n${brief.text.trim()}\n`, budget, estimatedTokens);
  return { kind: "brief", sessionId: brief.session_id, text };
}

/**
 * The brief cut to the budget at a line: at a small budget the engine's ledger (the requests, the files, the open
 * failures) can be more than the budget, and the engine never cuts it; here the budget is the user's cap.
 */
function withinBudget(text: string, budget: number, count: (text: string) => number): string {
  if (count(text) <= budget) return text;
  const mark = "\n[… cut to the hook's budget]\n";
  const lines = text.split("\n");
  while (lines.length > 1 && count(lines.join("\n") + mark) > budget) lines.pop();
  return `${lines.join("\n").trimEnd()}${mark}`;
}
