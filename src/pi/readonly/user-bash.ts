/**
 * The user's own shell commands (`!cmd`, and `!!cmd` kept out of the model's context) in read-only mode. pi hands
 * each one to extensions as a `user_bash` event before running it. A command the classifier judges to write is not
 * run: the user sees a failed command saying why and how to leave the mode. Any other command runs through pi's
 * own local shell, inside the same bwrap sandbox the model's bash uses where bwrap works, so writes the classifier
 * misses fail with "Read-only file system".
 */
import type { BashOperations, UserBashEvent, UserBashEventResult } from "@earendil-works/pi-coding-agent";
import type { PiHost } from "../host.ts";
import type { CairnState } from "../state.ts";
import { classifyBash } from "./bash-classifier.ts";
import { wrapInBwrap } from "./sandbox.ts";

/** pi's `BashResult` (not exported from its root in 0.87 or 1.6). */
export type UserBashResult = NonNullable<UserBashEventResult["result"]>;

/** The exit status of a command read-only mode refused to run (as `sh` reports a command it cannot execute). */
export const REFUSED_EXIT_CODE = 126;

export function guardUserBash(event: UserBashEvent, state: CairnState): UserBashEventResult | undefined {
  if (!state.readonly.enabled) return undefined;
  const verdict = classifyBash(event.command);
  if (verdict.writes) return { result: refusal(verdict.reason ?? "writes files") };
  if (state.services.sandbox().kind !== "bwrap") return undefined;
  return { operations: sandboxedOperations(state.services.host) };
}

/** The message a refused command shows in place of its output. */
export function refusalMessage(reason: string): string {
  return `Read-only mode is on: not run, because this command ${reason}.\nLeave read-only mode with /readonly off, then run it again.`;
}

function refusal(reason: string): UserBashResult {
  return { output: refusalMessage(reason), exitCode: REFUSED_EXIT_CODE, cancelled: false, truncated: false };
}

/** pi's own local execution (its shell, environment, streaming and cancellation), with the command sandboxed. */
function sandboxedOperations(host: PiHost): BashOperations {
  const local = host.createLocalBashOperations();
  return { exec: (command, cwd, options) => local.exec(wrapInBwrap(command, cwd), cwd, options) };
}
