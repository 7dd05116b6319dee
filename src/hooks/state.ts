/**
 * What `cairn hooks` remembers, in one JSON file beside cairn's other state (`$XDG_STATE_HOME/cairn/hooks.json`), not
 * beside the index, so that a deleted index is still reported: per agent, what install wrote over (to restore it
 * byte for byte), how often the hook ran, its last outcome and last error; the folders opted out; the budget.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface Installed {
  settingsPath: string;
  /** The settings file before install (null: there was none). */
  original: string | null;
  /** What install wrote: remove restores `original` when the file still holds exactly this. */
  written: string;
  at: string;
  /** The same for the agent's companion file (`SessionStartHook.companion`), when it has one. */
  companion?: { path: string; original: string | null; written: string };
}

export interface Runs {
  count: number;
  briefs: number;
  last?: { at: string; outcome: string; ms: number };
  lastError?: { at: string; message: string };
  /** Sessions handed to `cairn index` when they ended. */
  indexedAtEnd?: number;
}

export interface HooksState {
  version: 1;
  budget?: number;
  installed: Record<string, Installed>;
  runs: Record<string, Runs>;
  /** Folders (and everything under them) where no hook adds a brief. */
  optOut: string[];
  /** Briefs only in the folders opted in (`optIn`, or a `.cairn-hooks-on` file), not everywhere. */
  optInOnly?: boolean;
  /** Folders (and everything under them) opted in with `cairn hooks on`. */
  optIn: string[];
}

type Env = Record<string, string | undefined>;

export function statePath(env: Env): string {
  const base = env["XDG_STATE_HOME"] || join(env["HOME"] || homedir(), ".local", "state");
  return join(base, "cairn", "hooks.json");
}

export function readState(env: Env): HooksState {
  try {
    const parsed = JSON.parse(readFileSync(statePath(env), "utf8")) as Partial<HooksState>;
    return {
      version: 1,
      ...(typeof parsed.budget === "number" ? { budget: parsed.budget } : {}),
      installed: parsed.installed ?? {},
      runs: parsed.runs ?? {},
      optOut: Array.isArray(parsed.optOut) ? parsed.optOut : [],
      ...(parsed.optInOnly === true ? { optInOnly: true } : {}),
      optIn: Array.isArray(parsed.optIn) ? parsed.optIn : [],
    };
  } catch {
    return { version: 1, installed: {}, runs: {}, optOut: [], optIn: [] };
  }
}

/** Written whole through a temporary file, so a hook starting at the same moment never reads half of it. */
export function writeState(env: Env, state: HooksState): void {
  const path = statePath(env);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, path);
}

/**
 * An error as the state keeps it: one line of at most 300 characters, control characters as spaces. A message can
 * quote what the agent sent on stdin (a JSON parser's does), and `cairn hooks status` prints it to a terminal.
 */
export function errorRecord(error: unknown, at: string): { at: string; message: string } {
  const text = error instanceof Error ? error.message : String(error);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return { at, message: line.length > 300 ? `${line.slice(0, 299)}…` : line };
}
