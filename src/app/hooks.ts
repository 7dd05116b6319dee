/**
 * The agents whose session-start hook cairn can register in (`cairn hooks`), from their manifests, and the brief
 * such a hook hands the model: the latest work in the session's folder, by any agent, cited and redacted like every
 * answer, within a token budget.
 */
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, extname, join } from "node:path";
import { CairnError } from "../common/errors.ts";
import type { HookCompanion, HookStart, SessionStartHook } from "../readers/agent.ts";
import { parseStdinStart } from "../readers/hook-settings.ts";
import { HOOK_LOADERS } from "../readers/hooks.ts";
import type { ReadCairn } from "./cairn.ts";
import { readState, recordRun, skipReason } from "./hook-state.ts";

/** How long a brief at a session's start waits for a lock on the index that another process holds. */
const LOCK_WAIT_MS = 100;

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

/** What running a start's brief needs of a hook: reading its input, answering, where its other sessions are. */
export type HookRun = Pick<SessionStartHook, "parseInput" | "output" | "earlier">;

/**
 * The brief pi's extension asks for (`cairn hooks run pi`, from a process of its own so that pi loads none of the
 * index): the start as JSON in Claude Code's field names, the brief as plain text. pi has no settings file to
 * register in, so it is no provider of `cairn hooks install`.
 */
export const PI_BRIEF: HookRun = {
  parseInput: (text) => parseStdinStart(text, []),
  output: (context) => context,
};

/** The hook `cairn hooks run <agent>` answers for: an agent's, or pi's extension's. */
export async function hookToRun(agent: string): Promise<HookRun | undefined> {
  return agent === "pi" ? PI_BRIEF : loadHook(agent);
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

/**
 * A start's brief as every surface gives one (`cairn hooks run`, pi's extension): none where the start is skipped
 * (`CAIRN_HOOKS=off`, a folder turned off, a continuation), else `hookBrief` within the user's budget; the run and
 * its outcome or error recorded for `cairn hooks status`. Never throws.
 */
export async function briefAtStart(
  agent: string,
  hook: HookRun | null,
  start: HookStart,
  env: Record<string, string | undefined>,
  opts: { startedAt?: number; db?: string } = {},
): Promise<string | null> {
  const started = opts.startedAt ?? Date.now();
  let outcome = "error";
  let text: string | null = null;
  let failure: unknown;
  try {
    const state = readState(env);
    const skip = skipReason(start, env, state);
    if (skip) outcome = `skipped: ${skip}`;
    else {
      const result = await hookBrief(hook, start, env, state.budget ?? DEFAULT_HOOK_BUDGET, opts.db);
      if (result.kind === "brief") {
        text = result.text;
        outcome = `brief of session ${result.sessionId}`;
      } else outcome = `nothing: ${result.why}`;
    }
  } catch (error) {
    failure = error;
  }
  recordRun(env, agent, { outcome, briefed: text !== null, ms: Date.now() - started, at: new Date(), failure });
  return text;
}

/**
 * The brief a session starting at `start` gets, with the index refreshed first with the agent's other recent
 * transcripts of the project (`hook.earlier`, else the files beside the session's own). Another process indexing:
 * the index is read as it is rather than waited for; a database locked: an error at once, not in ten seconds.
 */
export async function hookBrief(
  hook: HookRun | null,
  start: HookStart,
  env: Record<string, string | undefined>,
  budget: number,
  db?: string,
): Promise<StartBrief> {
  // Loaded only for a start that gets a brief.
  const { createCairn } = await import("./cairn.ts");
  const where = { env, cwd: start.cwd, ...(db !== undefined ? { db } : {}) };
  const app = createCairn({ ...where, mode: "write", exit: "data", busyTimeoutMs: LOCK_WAIT_MS });
  try {
    const files = earlierTranscripts(hook, start, env);
    if (files.length > 0) await app.refresh(files, { waitMs: 0 }).catch(() => null);
    return await startBrief(app, start, budget);
  } finally {
    app.close();
  }
}

/** The agent's other recent transcripts of this project, newest first, at most 20. */
function earlierTranscripts(hook: HookRun | null, start: HookStart, env: Record<string, string | undefined>): string[] {
  const where = hook?.earlier
    ? hook.earlier(start, env, env["HOME"] || homedir())
    : besideTranscript(start.transcriptPath);
  if (!where) return [];
  const files: Array<{ path: string; at: number }> = [];
  for (const dir of where.dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {}
    for (const name of names) {
      const path = where.file ? join(dir, name, where.file) : join(dir, name);
      if (!where.match(name) || path === start.transcriptPath) continue;
      try {
        files.push({ path, at: statSync(path).mtimeMs });
      } catch {}
    }
  }
  return files
    .sort((a, b) => b.at - a.at)
    .slice(0, 20)
    .map((f) => f.path);
}

function besideTranscript(path: string | undefined): ReturnType<NonNullable<HookRun["earlier"]>> {
  if (!path) return null;
  const ext = extname(path);
  return { dirs: [dirname(path)], match: (name: string) => ext !== "" && name.endsWith(ext) };
}
