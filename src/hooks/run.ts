/**
 * `cairn hooks run <agent>`: what the agent runs at session start. It reads what the agent says on stdin, refreshes
 * the index with this folder's transcripts of that agent (waiting for no other writer), and prints the latest
 * earlier work here as the agent's hook output. It never stands in the agent's way: every error of its own is
 * recorded for `cairn hooks status` and the hook exits 0 with nothing printed; it asks no model.
 */
import { recordRun } from "../app/hook-state.ts";
import { briefAtStart, type HookStart, hookToRun } from "../app/hooks.ts";

export interface HookIo {
  env: Record<string, string | undefined>;
  stdin: string;
  stdout: { write(chunk: string): unknown };
  now?: () => number;
}

export async function runHook(agent: string, io: HookIo): Promise<void> {
  const now = io.now ?? Date.now;
  const started = now();
  let hook: Awaited<ReturnType<typeof hookToRun>>;
  let start: HookStart;
  try {
    hook = await hookToRun(agent);
    if (!hook) throw new Error(`cairn has no session-start hook for '${agent}'`);
    start = hook.parseInput(io.stdin);
  } catch (failure) {
    const ms = Math.round(now() - started);
    recordRun(io.env, agent, { outcome: "error", briefed: false, ms, at: new Date(now()), failure });
    return;
  }
  const text = await briefAtStart(agent, hook, start, io.env, { startedAt: started });
  if (text !== null) io.stdout.write(hook.output(text));
}
