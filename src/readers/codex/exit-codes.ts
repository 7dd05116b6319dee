/**
 * Exit codes Codex reports in an event (`exec_command_end`, `patch_apply_end`, a completed 0.16x item) before the
 * call's output arrives: kept by call id until the output takes them.
 */
import type { CodexState } from "./state.ts";

/** Outputs that never arrive must not grow the state without end: the oldest code goes first. */
const KEPT = 256;

export function rememberExitCode(s: CodexState, callId: string, code: number): void {
  const keys = Object.keys(s.exitCodes);
  if (keys.length >= KEPT) delete s.exitCodes[keys[0]!];
  s.exitCodes[callId] = code;
}

export function takeExitCode(s: CodexState, callId: string): number | undefined {
  const early = s.exitCodes[callId];
  if (early !== undefined) delete s.exitCodes[callId];
  return early;
}
