/**
 * `cairn hooks run <agent>`: what the agent runs at session start. It reads what the agent says on stdin, refreshes
 * the index with this folder's transcripts of that agent (waiting for no other writer), and prints the latest
 * earlier work here as the agent's hook output. It never stands in the agent's way: every error of its own is
 * recorded for `cairn hooks status` and the hook exits 0 with nothing printed; it asks no model.
 */
import { readState, recordRun, skipReason } from "../app/hook-state.ts";
import { DEFAULT_HOOK_BUDGET, hookBrief, hookToRun } from "../app/hooks.ts";

export interface HookIo {
  env: Record<string, string | undefined>;
  stdin: string;
  stdout: { write(chunk: string): unknown };
  now?: () => number;
}

export async function runHook(agent: string, io: HookIo): Promise<void> {
  const now = io.now ?? Date.now;
  const started = now();
  const state = readState(io.env);
  let outcome = "error";
  let briefed = false;
  let failure: unknown;
  try {
    const hook = await hookToRun(agent);
    if (!hook) throw new Error(`cairn has no session-start hook for '${agent}'`);
    const start = hook.parseInput(io.stdin);
    const skip = skipReason(start, io.env, state);
    if (skip) outcome = `skipped: ${skip}`;
    else {
      const result = await hookBrief(hook, start, io.env, state.budget ?? DEFAULT_HOOK_BUDGET);
      if (result.kind === "brief") {
        io.stdout.write(hook.output(result.text));
        briefed = true;
        outcome = `brief of session ${result.sessionId}`;
      } else outcome = `nothing: ${result.why}`;
    }
  } catch (error) {
    failure = error;
  }
  recordRun(io.env, agent, { outcome, briefed, ms: Math.round(now() - started), at: new Date(now()), failure });
}
