/**
 * How a brief reaches the agent that resumes from it. A short brief is the agent's first message, passed as one
 * argument. Linux refuses any single argument over 128 KiB ("Argument list too long"), and briefs of large sessions
 * are bigger, so a brief over MAX_BRIEF_ARG_BYTES is written to a file (private to the user, under
 * $XDG_CACHE_HOME/cairn/briefs) and handed over the way each agent reads a file at start-up: pi inlines `@file`
 * arguments into its first message, Claude Code appends `--append-system-prompt-file` to its system prompt, and
 * Codex, which has neither, is asked to read the file first.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const AGENTS = ["claude", "codex", "pi"] as const;
export type Agent = (typeof AGENTS)[number];

/** Well under Linux's 128 KiB limit on one argument, leaving room for the quoting and the rest of the line. */
export const MAX_BRIEF_ARG_BYTES = 100_000;

export interface Handoff {
  text: string;
  session_id: string;
  at: string;
}

/** The agent's argv (its name first) that starts it with the brief; writes the brief's file when it needs one. */
export function agentArgv(agent: Agent, brief: Handoff, env: Record<string, string | undefined>): string[] {
  if (Buffer.byteLength(brief.text) <= MAX_BRIEF_ARG_BYTES)
    // pi reads everything after `--` as messages, so a brief can never be taken for an option or an @file.
    return agent === "pi" ? ["pi", "--", brief.text] : [agent, brief.text];
  const file = writeBriefFile(brief, env);
  switch (agent) {
    case "pi":
      return ["pi", "--", `@${file}`];
    case "claude":
      return [
        "claude",
        "--append-system-prompt-file",
        file,
        "Your system prompt ends with a resume brief of earlier work on this project. Continue the work it describes.",
      ];
    case "codex":
      return [
        "codex",
        `Read the resume brief in ${file} before anything else, all of it (it is long: read it in parts if need be), then continue the work it describes.`,
      ];
  }
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
