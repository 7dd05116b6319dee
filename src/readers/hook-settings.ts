/**
 * Session-start hooks in the settings shape Claude Code introduced and other agents copied (pure):
 * `{ "hooks": { "<Event>": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…", "timeout": N } ] } ] } }`.
 * cairn's entry is the group whose command runs `cairn hooks run <agent>`; everything else in the file is the
 * user's and is kept as it is. The file is rewritten with the indentation it had.
 */
import type { HookStart, SessionStartHook } from "./agent.ts";

export interface HookSettingsShape {
  /** The event cairn registers for. */
  event: string;
  /**
   * Which starts the group matches (the agent's matcher syntax); absent: all. A list writes one group per matcher,
   * for agents whose matcher is one exact source, not a pattern.
   */
  matcher?: string | readonly string[];
  /** The time the agent gives the hook, in the unit its settings take (seconds or milliseconds). */
  timeout: number;
  /**
   * The event at a session's end, where cairn indexes the session in the background (`cairn hooks index`), so that
   * the next start finds it indexed instead of indexing it first.
   */
  endEvent?: string;
}

type Json = Record<string, unknown>;
interface Group {
  matcher?: string;
  hooks?: Array<{ type?: string; command?: string }>;
}

/** Whether a command is cairn's hook for an agent (any install path of cairn), at a start or an end. */
export function isCairnCommand(command: unknown, agent: string): boolean {
  return typeof command === "string" && new RegExp(`\\bhooks (?:run|index) ${agent}$`).test(command.trim());
}

/** The end-of-session command beside a start command (`… hooks run claude` → `… hooks index claude`). */
export function endCommand(command: string): string {
  return command.replace(/\bhooks run (\S+)$/, "hooks index $1");
}

export function settingsHook(
  agent: string,
  shape: HookSettingsShape,
  io: Pick<SessionStartHook, "settingsPath" | "parseInput" | "output">,
): SessionStartHook {
  const ours = (group: Group) => (group.hooks ?? []).some((h) => isCairnCommand(h.command, agent));
  return {
    ...io,
    installed(text) {
      const groups = eventGroups(parse(text), shape.event);
      return groups.some(ours);
    },
    install(text, command) {
      const settings = text === null || text.trim() === "" ? {} : parse(text);
      const hooks = (settings["hooks"] ?? {}) as Json;
      const hook = { type: "command", command, timeout: shape.timeout };
      const matchers = shape.matcher === undefined ? [undefined] : [shape.matcher].flat();
      const ourGroups = matchers.map((matcher) => ({ ...(matcher ? { matcher } : {}), hooks: [hook] }));
      const next = {
        ...hooks,
        [shape.event]: [...eventGroups(settings, shape.event).filter((g) => !ours(g)), ...ourGroups],
      };
      if (shape.endEvent) {
        const end = { hooks: [{ ...hook, command: endCommand(command) }] };
        next[shape.endEvent] = [...eventGroups(settings, shape.endEvent).filter((g) => !ours(g)), end];
      }
      settings["hooks"] = next;
      return formatLike(settings, text);
    },
    remove(text) {
      const settings = parse(text);
      const events = [shape.event, ...(shape.endEvent ? [shape.endEvent] : [])];
      if (!events.some((event) => eventGroups(settings, event).some(ours))) return null;
      const hooks = { ...(settings["hooks"] as Json) };
      for (const event of events) {
        const groups = eventGroups(settings, event);
        if (!groups.some(ours)) continue;
        const kept = groups.filter((g) => !ours(g));
        if (kept.length > 0) hooks[event] = kept;
        else delete hooks[event];
      }
      if (Object.keys(hooks).length > 0) settings["hooks"] = hooks;
      else delete settings["hooks"];
      return formatLike(settings, text);
    },
  };
}

function parse(text: string): Json {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("settings are not a JSON object");
  return value as Json;
}

function eventGroups(settings: Json, event: string): Group[] {
  const hooks = settings["hooks"];
  if (typeof hooks !== "object" || hooks === null) return [];
  const groups = (hooks as Json)[event];
  return Array.isArray(groups) ? (groups as Group[]) : [];
}

/** JSON with the indentation and final newline of `like` (two spaces and a newline for a new file). */
export function formatLike(settings: Json, like: string | null): string {
  const indent = like?.match(/^[ \t]+(?=")/m)?.[0] ?? "  ";
  const newline = like === null || like.endsWith("\n") ? "\n" : "";
  return `${JSON.stringify(settings, null, indent)}${newline}`;
}

/** The common stdin of these hooks: `{ session_id, transcript_path, cwd, source }`. */
export function parseStdinStart(text: string, continuations: readonly string[]): HookStart {
  const input = text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
  const str = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
  const source = str("source");
  const sessionId = str("session_id");
  const transcriptPath = str("transcript_path");
  return {
    cwd: str("cwd") ?? "",
    ...(sessionId ? { sessionId } : {}),
    ...(transcriptPath ? { transcriptPath } : {}),
    ...(source ? { source } : {}),
    continuation: source !== undefined && continuations.includes(source),
  };
}
