/**
 * A session's human title: the one its agent wrote where it wrote a real one, else the first request a person typed,
 * else what it is and where it ran. Never an id: people pick a session from a list by what it was about.
 */
import { agentName } from "../readers/agents.ts";

/** About one line of a list. */
export const TITLE_MAX = 80;

/** Where a session's title came from; a later, better source replaces an earlier one. */
export type TitleSource = "agent" | "request" | "fallback";

/** Text cut to one line of at most `max` characters, at a word where there is one, with "…" when cut. */
export function titleLine(text: string, max = TITLE_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  // A word longer than half the line (a path, a URL) is cut where the line ends rather than dropped whole.
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** Placeholders agents give a session before (or instead of) naming it. */
const PLACEHOLDER_RE = /^(new (session|chat|conversation)|untitled)\b[\s\d:.TZ-]*$/i;

/**
 * The agent's title as people should read it, or null when it names nothing: markup only (`<summary>`), a
 * placeholder ("New session - 2026-11-24T16:26:00.424Z").
 */
export function agentTitle(raw: string): string | null {
  const text = raw.replace(/<\/?[A-Za-z][\w-]*>/g, " ");
  const line = titleLine(text);
  if (!/\p{L}/u.test(line) || PLACEHOLDER_RE.test(line)) return null;
  return line;
}

/** The title a typed request gives a session, or null when it asks nothing in words (only a paste, a command). */
export function requestTitle(typed: string): string | null {
  const text = typed.trim();
  if (/^\/[\w:.-]*$/.test(text)) return null;
  const line = titleLine(text);
  return /\p{L}/u.test(line) ? line : null;
}

/** A session without a request: its agent and the folder it ran in. */
export function fallbackTitle(provider: string, kind: string, project: string | null): string {
  const what = kind === "subagent" ? "subagent" : kind === "fork" ? "fork" : "session";
  const folder = project?.replace(/^.*[\\/]/, "");
  return folder ? `${agentName(provider)} ${what} in ${folder}` : `${agentName(provider)} ${what}`;
}
