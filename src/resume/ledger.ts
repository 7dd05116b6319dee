/** Folds a timeline into the ledger: every rule in its own module, applied once per cut. */
import type { Checkpoint } from "./checkpoints.ts";
import { checksOf, commandsOf } from "./checks.ts";
import { constraintsOf } from "./constraints.ts";
import { decisionsOf } from "./decision-status.ts";
import { failuresOf } from "./failures.ts";
import { fileStatesOf } from "./file-states.ts";
import type { Ledger } from "./ledger-types.ts";
import { handoffOf, notebookOf } from "./notebook.ts";
import { planItemsOf } from "./plan-items.ts";
import { openRequestsOf } from "./request-outcomes.ts";
import { goalOf, latestRequests } from "./requests.ts";
import { stepOf } from "./step.ts";
import type { Timeline } from "./timeline.ts";

export function buildLedger(t: Timeline, checkpoints: readonly Checkpoint[], targetStep: number | null): Ledger {
  const cwd = t.session.cwd;
  const plan = planItemsOf(t.events, cwd);
  return {
    goal: goalOf(t.events),
    latest: latestRequests(t.events),
    requests: openRequestsOf(t.events),
    constraints: constraintsOf(t.events),
    decisions: decisionsOf(t.events),
    files: fileStatesOf(t.events, cwd),
    failures: failuresOf(t.events, t.byId, cwd),
    checks: checksOf(t.events),
    commands: commandsOf(t.events),
    plan,
    step: stepOf(checkpoints, t.cut.ordinal, plan, targetStep),
    notebook: notebookOf(t.events),
    handoff: handoffOf(t.events),
  };
}
