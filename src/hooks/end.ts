/**
 * `cairn hooks index <agent>`: what the agent runs when a session ends. It starts `cairn index` on the session's
 * transcript in a process of its own and returns at once, so the agent's exit does not wait for it, and the next
 * session's start finds the session indexed instead of indexing it first (a long session's transcript took the
 * start hook from 150 to 330 ms, docs/performance.md "Issue 39"). Like the start hook it never stands in the way.
 */
import { spawn } from "node:child_process";
import { errorRecord, readState, skipReason, updateRuns } from "../app/hook-state.ts";
import { loadHook } from "../app/hooks.ts";
import type { HookIo } from "./run.ts";

export function runEndHook(agent: string, io: HookIo & { cli: string }): Promise<void> {
  return loadHook(agent)
    .then((hook) => {
      if (!hook) throw new Error(`cairn has no session-start hook for '${agent}'`);
      const end = hook.parseInput(io.stdin);
      const path = end.transcriptPath;
      if (!path || skipReason({ ...end, continuation: false }, io.env, readState(io.env))) return;
      const child = spawn(process.execPath, [io.cli, "index", path], {
        detached: true,
        stdio: "ignore",
        env: io.env as NodeJS.ProcessEnv,
      });
      child.on("error", () => {});
      child.unref();
      updateRuns(io.env, agent, (runs) => {
        runs.indexedAtEnd = (runs.indexedAtEnd ?? 0) + 1;
      });
    })
    .catch((error: unknown) => {
      updateRuns(io.env, agent, (runs) => {
        runs.lastError = errorRecord(error, new Date().toISOString());
      });
    });
}
