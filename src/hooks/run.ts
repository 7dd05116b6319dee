/**
 * `cairn hooks run <agent>`: what the agent runs at session start. It reads what the agent says on stdin, refreshes
 * the index with this folder's transcripts of that agent (waiting for no other writer), and prints the latest
 * earlier work here as the agent's hook output. It never stands in the agent's way: every error of its own is
 * recorded for `cairn hooks status` and the hook exits 0 with nothing printed; it asks no model.
 */
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { DEFAULT_HOOK_BUDGET, type HookStart, loadHook, type SessionStartHook, startBrief } from "../app/hooks.ts";
import { errorRecord, type HooksState, readState, writeState } from "./state.ts";

/** How long the hook waits for a lock on the index that another process holds. */
const LOCK_WAIT_MS = 100;

export interface HookIo {
  env: Record<string, string | undefined>;
  stdin: string;
  stdout: { write(chunk: string): unknown };
  now?: () => number;
}

/** Why a start gets no brief before the index is even opened, or null. */
export function skipReason(
  start: HookStart,
  env: HookIo["env"],
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

export async function runHook(agent: string, io: HookIo): Promise<void> {
  const now = io.now ?? Date.now;
  const started = now();
  const state = readState(io.env);
  const runs = state.runs[agent] ?? { count: 0, briefs: 0 };
  runs.count++;
  let outcome = "error";
  try {
    const hook = await loadHook(agent);
    if (!hook) throw new Error(`cairn has no session-start hook for '${agent}'`);
    const start = hook.parseInput(io.stdin);
    const skip = skipReason(start, io.env, state);
    if (skip) outcome = `skipped: ${skip}`;
    else {
      const result = await briefFor(
        start,
        earlierTranscripts(hook, start, io.env),
        io.env,
        state.budget ?? DEFAULT_HOOK_BUDGET,
      );
      if (result.kind === "brief") {
        io.stdout.write(hook.output(result.text));
        runs.briefs++;
        outcome = `brief of session ${result.sessionId}`;
      } else outcome = `nothing: ${result.why}`;
    }
  } catch (error) {
    runs.lastError = errorRecord(error, new Date(now()).toISOString());
  }
  runs.last = { at: new Date(now()).toISOString(), outcome, ms: Math.round(now() - started) };
  try {
    writeState(io.env, readAgain(io.env, agent, runs));
  } catch {}
}

/** Another hook may have run meanwhile: only this agent's record is replaced. */
function readAgain(env: HookIo["env"], agent: string, runs: ReturnType<typeof readState>["runs"][string]) {
  const fresh = readState(env);
  fresh.runs[agent] = runs;
  return fresh;
}

async function briefFor(start: HookStart, files: string[], env: HookIo["env"], budget: number) {
  // Loaded only for a start that gets a brief.
  const { createCairn } = await import("../app/cairn.ts");
  // A database another process holds locked fails the start at once rather than after SQLite's ten seconds.
  const app = createCairn({ env, cwd: start.cwd, mode: "write", exit: "data", busyTimeoutMs: LOCK_WAIT_MS });
  try {
    if (files.length > 0) {
      // Another process indexing: answer from the index as it is rather than wait.
      await app.refresh(files, { waitMs: 0 }).catch(() => null);
    }
    return await startBrief(app, start, budget);
  } finally {
    app.close();
  }
}

/** The agent's other recent transcripts of this project, newest first, at most 20. */
function earlierTranscripts(hook: SessionStartHook, start: HookStart, env: HookIo["env"]): string[] {
  const where = hook.earlier
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

function besideTranscript(path: string | undefined): ReturnType<NonNullable<SessionStartHook["earlier"]>> {
  if (!path) return null;
  const ext = extname(path);
  return { dirs: [dirname(path)], match: (name: string) => ext !== "" && name.endsWith(ext) };
}
