/**
 * How a brief reaches the agent that resumes from it. A short brief is the agent's first message, passed as one
 * argument. Linux refuses any single argument over 128 KiB ("Argument list too long"), and briefs of large sessions
 * are bigger, so a brief over MAX_BRIEF_ARG_BYTES is written to a file (private to the user, under
 * $XDG_CACHE_HOME/cairn/briefs) and handed over the way each agent reads a file at start-up, as its manifest says
 * (`start` in `readers/<agent>/agent.ts`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { agentOf, AGENTS as REGISTRY } from "../readers/agents.ts";

/** The agents a brief can start: those whose manifest says how (`start`). */
export const AGENTS: readonly string[] = REGISTRY.filter((a) => a.start).map((a) => a.provider);
export type Agent = string;

/** Well under Linux's 128 KiB limit on one argument, leaving room for the quoting and the rest of the line. */
export const MAX_BRIEF_ARG_BYTES = 100_000;

export interface Handoff {
  text: string;
  session_id: string;
  at: string;
}

/** The agent's argv (its name first) that starts it with the brief; writes the brief's file when it needs one. */
export function agentArgv(agent: Agent, brief: Handoff, env: Record<string, string | undefined>): string[] {
  const start = agentOf(agent)?.start;
  if (!start) throw new Error(`cairn does not know how to start '${agent}' with a brief`);
  if (Buffer.byteLength(brief.text) <= MAX_BRIEF_ARG_BYTES) return start.inline(brief.text);
  return start.file(writeBriefFile(brief, env));
}

export function briefsDir(env: Record<string, string | undefined>): string {
  const cache = env["XDG_CACHE_HOME"] || join(env["HOME"] || homedir(), ".cache");
  return join(cache, "cairn", "briefs");
}

function writeBriefFile(brief: Handoff, env: Record<string, string | undefined>): string {
  const dir = briefsDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Named by session and cut, so asking again for the same brief rewrites one file instead of adding another.
  const file = join(dir, `${brief.session_id}-${brief.at}.md`);
  writeFileSync(file, brief.text, { mode: 0o600 });
  return file;
}
