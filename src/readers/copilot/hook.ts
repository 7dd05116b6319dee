/**
 * GitHub Copilot CLI's `sessionStart` hook. The CLI loads every `*.json` in its user hooks folder
 * (`$COPILOT_HOME/hooks`, default `~/.copilot/hooks`), each `{ "version": 1, "hooks": { "<event>": [ { "type":
 * "command", "bash": "…", "timeoutSec": N } ] } }`: cairn keeps its entry in a file of its own, `cairn.json`. The
 * hook gets `{ sessionId, timestamp, cwd, source, initialPrompt }` on stdin (camelCase; `source` is startup, new or
 * resume; no transcript path) and hands the model the `additionalContext` of the JSON it prints, as a user message
 * before the first prompt. A resumed session already carries its history.
 */
import { join } from "node:path";
import type { HookStart, SessionStartHook } from "../agent.ts";
import { formatLike, isCairnCommand } from "../hook-settings.ts";

const EVENT = "sessionStart";
/** Seconds (`timeoutSec`). */
const TIMEOUT = 10;

type Json = Record<string, unknown>;
interface Entry {
  type?: string;
  bash?: string;
}

const ours = (entry: Entry) => isCairnCommand(entry?.bash, "copilot");

function parse(text: string): Json {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("hooks file is not a JSON object");
  return value as Json;
}

function entries(file: Json): Entry[] {
  const hooks = file["hooks"];
  if (typeof hooks !== "object" || hooks === null) return [];
  const list = (hooks as Json)[EVENT];
  return Array.isArray(list) ? (list as Entry[]) : [];
}

/** The copilot home: `$COPILOT_HOME`, else `~/.copilot` (sessions in `session-state/`, user hooks in `hooks/`). */
export function copilotHome(env: Record<string, string | undefined>, home: string): string {
  return env["COPILOT_HOME"] || join(home, ".copilot");
}

export const copilotHook: SessionStartHook = {
  settingsPath: (env, home) => join(copilotHome(env, home), "hooks", "cairn.json"),
  installed: (text) => entries(parse(text)).some(ours),
  install(text, command) {
    const file = text === null || text.trim() === "" ? {} : parse(text);
    const hooks = (file["hooks"] ?? {}) as Json;
    const kept = entries(file).filter((e) => !ours(e));
    const entry = { type: "command", bash: command, timeoutSec: TIMEOUT };
    return formatLike({ version: 1, ...file, hooks: { ...hooks, [EVENT]: [...kept, entry] } }, text);
  },
  remove(text) {
    const file = parse(text);
    const list = entries(file);
    if (!list.some(ours)) return null;
    const kept = list.filter((e) => !ours(e));
    const hooks = { ...(file["hooks"] as Json) };
    if (kept.length > 0) hooks[EVENT] = kept;
    else delete hooks[EVENT];
    return formatLike({ ...file, hooks }, text);
  },
  parseInput(text) {
    const input = text.trim() === "" ? {} : (JSON.parse(text) as Json);
    const str = (...keys: string[]) => {
      for (const key of keys) if (typeof input[key] === "string") return input[key] as string;
      return undefined;
    };
    const sessionId = str("sessionId", "session_id");
    const source = str("source");
    const start: HookStart = {
      cwd: str("cwd", "workingDirectory") ?? "",
      ...(sessionId ? { sessionId } : {}),
      ...(source ? { source } : {}),
      continuation: source === "resume",
    };
    return start;
  },
  output: (context) => `${JSON.stringify({ additionalContext: context })}\n`,
  /**
   * Every session is a folder `session-state/<id>/` holding `events.jsonl`, whatever its project: the newest
   * sessions but this one (its folder is named by its id).
   */
  earlier: (start, env, home) => ({
    dirs: [join(copilotHome(env, home), "session-state")],
    match: (name) => name !== start.sessionId,
    file: "events.jsonl",
  }),
};
