/**
 * The step: the checkpoint the brief resumes from and what is in progress. Explicit checkpoints and resume points
 * are the evidence; a "Step N" in prose is not (resume-method §4.4: the regex fallback reported the wrong step).
 */
import { type Checkpoint, checkpointAtOrBefore } from "./checkpoints.ts";
import type { LedgerPlanItem, LedgerStep } from "./ledger-types.ts";

export function stepOf(
  checkpoints: readonly Checkpoint[],
  cutOrdinal: number,
  plan: readonly LedgerPlanItem[],
  target: number | null,
): LedgerStep {
  const at = checkpointAtOrBefore(checkpoints, cutOrdinal);
  const active = plan.find((p) => p.state === "in_progress") ?? plan.find((p) => p.state === "pending") ?? null;
  const cites: string[] = [];
  if (at) cites.push(at.event_id);
  if (active) cites.push(...active.cites);
  return {
    target: target ?? (at && at.ordinal === cutOrdinal ? at.step : null),
    checkpointStep: at?.step ?? null,
    checkpointOrdinal: at?.ordinal ?? null,
    label: at?.label ?? null,
    current: active?.text ?? null,
    cites,
  };
}
