/**
 * What `cairn hooks` remembers, in one JSON file beside cairn's other state (`$XDG_STATE_HOME/cairn/hooks.json`), not
 * beside the index, so that a deleted index is still reported: per agent, what install wrote over (to restore it
 * byte for byte), how often the hook ran, its last outcome and last error; the folders opted out or in; the
 * budget. And the rules those folders make, which every session-start brief follows (`cairn hooks run`, pi's).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { HookStart } from "../readers/agent.ts";

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

/** Why a start gets no brief before the index is even opened, or null. */
export function skipReason(
  start: HookStart,
  env: Record<string, string | undefined>,
  folders: Pick<HooksState, "optOut" | "optIn" | "optInOnly">,
): string | null {
  if (/^(0|off|false|no)$/i.test(env["CAIRN_HOOKS"] ?? "")) return "CAIRN_HOOKS=off for this session";
  if (start.continuation) return `a ${start.source ?? "continued"} session carries its own history`;
  if (!start.cwd) return "the agent gave no folder";
  const here = resolve(start.cwd);
  const out = within(here, folders.optOut) ?? markerAbove(here, OPT_OUT_FILE);
  if (out) return `opted out (${out})`;
  if (folders.optInOnly && !(within(here, folders.optIn) ?? markerAbove(here, OPT_IN_FILE)))
    return "not opted in (briefs only where 'cairn hooks on' or a .cairn-hooks-on file says)";
  return null;
}

function within(here: string, dirs: readonly string[]): string | undefined {
  return dirs.find((dir) => here === dir || here.startsWith(`${dir.replace(/\/+$/, "")}/`));
}

/** A file in the folder or one above it opts a project out, or in (files a team can commit). */
export const OPT_OUT_FILE = ".cairn-hooks-off";
export const OPT_IN_FILE = ".cairn-hooks-on";
function markerAbove(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, name);
    try {
      statSync(file);
      return file;
    } catch {}
    if (dirname(at) === at) return undefined;
  }
}

export interface RunRecord {
  outcome: string;
  briefed: boolean;
  ms: number;
  at: Date;
  /** The hook's own error, if it failed. */
  failure?: unknown;
}

/** Changes one agent's record, leaving the others as another run may have just written them. Never throws. */
export function updateRuns(env: Env, agent: string, change: (runs: Runs) => void): void {
  try {
    const state = readState(env);
    const runs = state.runs[agent] ?? { count: 0, briefs: 0 };
    change(runs);
    state.runs[agent] = runs;
    writeState(env, state);
  } catch {}
}

/** One run of a session-start brief, counted for `cairn hooks status` (the agent's hook, or pi's extension). */
export function recordRun(env: Env, agent: string, run: RunRecord): void {
  updateRuns(env, agent, (runs) => {
    runs.count++;
    if (run.briefed) runs.briefs++;
    const at = run.at.toISOString();
    if (run.failure !== undefined) runs.lastError = errorRecord(run.failure, at);
    runs.last = { at, outcome: run.outcome, ms: run.ms };
  });
}
