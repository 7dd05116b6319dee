/**
 * A run's progress on the session tree (pure). Each change of a run's position or state is a `custom` entry holding
 * the plain `SequenceRun`, so the run crosses a session reset or a reload as data only: `newSession`'s `setup`
 * writes a `start` record into the new session and the new extension instance claims it on `session_start`; an
 * instance stopped by `/reload` writes an `interrupted` record that its successor claims. Like snapshots, records
 * never enter the model's context and are never labelled.
 */
import type { SessionEntry } from "@earendil-works/pi-coding-agent";
import { customDataNewestFirst } from "../branch.ts";
import type { SequenceRun } from "./types.ts";

export const SEQUENCE_RUN_TYPE = "cairn-sequence-run";

/**
 * - `start`: written by `setup` into a new session; the run continues there at `run`'s position (after a handoff,
 *   `direction` is sent first).
 * - `running`: an instance is executing the run; `run` is the next step to execute.
 * - `reset`: the iteration is done; the next one (`run`) needs a fresh session.
 * - `handoff`: step `run.stepIndex` is a `/handoff` with `direction`; it needs a new session with a brief.
 * - `interrupted`: `/reload` stopped the instance; `pending` is the session change it was waiting for, if any.
 * - `finished`, `failed`, `cancelled`: the run is over.
 */
export const RUN_PHASES = [
  "start",
  "running",
  "reset",
  "handoff",
  "interrupted",
  "finished",
  "failed",
  "cancelled",
] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

/** The session changes a run can wait for: only a command context can make them. */
export type PendingSessionChange = "reset" | "handoff";

export interface SequenceRunEntry {
  version: 1;
  phase: RunPhase;
  run: SequenceRun;
  updatedAt: number;
  /** `handoff`: the direction for the next session; `start` after a handoff: the prompt to send first. */
  direction?: string;
  /** `interrupted`: the session change the run was waiting for. */
  pending?: PendingSessionChange;
}

/** What an executing iteration ends with: a session change to make, or the end of the run. */
export type RunRequest =
  | { kind: "reset"; run: SequenceRun }
  | { kind: "handoff"; run: SequenceRun; direction: string }
  | { kind: "finished" | "failed" | "cancelled"; run: SequenceRun }
  /** The instance's session ended under the run: nothing may touch its context any more. */
  | { kind: "ended"; run: SequenceRun };

export function isSessionChange(request: RunRequest): request is Extract<RunRequest, { kind: PendingSessionChange }> {
  return request.kind === "reset" || request.kind === "handoff";
}

export function runRecord(
  phase: RunPhase,
  run: SequenceRun,
  updatedAt: number,
  extra: Pick<SequenceRunEntry, "direction" | "pending"> = {},
): SequenceRunEntry {
  return { version: 1, phase, run: copyRun(run), updatedAt, ...extra };
}

/** The record that asks for `request`'s session change, or ends the run. */
export function requestRecord(request: RunRequest, updatedAt: number): SequenceRunEntry | undefined {
  if (request.kind === "ended") return undefined;
  if (request.kind === "handoff") return runRecord("handoff", request.run, updatedAt, { direction: request.direction });
  return runRecord(request.kind, request.run, updatedAt);
}

/** The request a record stands for, when it asks for a session change. */
export function pendingRequest(record: SequenceRunEntry): RunRequest | undefined {
  const kind = record.phase === "interrupted" ? record.pending : record.phase;
  if (kind === "reset") return { kind, run: record.run };
  if (kind === "handoff" && record.direction !== undefined)
    return { kind, run: record.run, direction: record.direction };
  return undefined;
}

/** Validate one entry's `data`; anything that is not a complete version-1 record is rejected. */
export function parseRunRecord(data: unknown): SequenceRunEntry | null {
  if (typeof data !== "object" || data === null) return null;
  const record = data as Record<string, unknown>;
  const { phase, run, updatedAt, direction, pending } = record;
  if (record["version"] !== 1 || !(RUN_PHASES as readonly unknown[]).includes(phase)) return null;
  if (typeof updatedAt !== "number" || !isRun(run)) return null;
  if (direction !== undefined && typeof direction !== "string") return null;
  if (pending !== undefined && pending !== "reset" && pending !== "handoff") return null;
  return {
    version: 1,
    phase: phase as RunPhase,
    run: copyRun(run),
    updatedAt,
    ...(direction !== undefined ? { direction } : {}),
    ...(pending !== undefined ? { pending } : {}),
  };
}

/** The newest valid record on `branch` (of run `runId` when given), or null. */
export function latestRunRecord(branch: readonly SessionEntry[], runId?: string): SequenceRunEntry | null {
  for (const data of customDataNewestFirst(branch, SEQUENCE_RUN_TYPE)) {
    const record = parseRunRecord(data);
    if (record && (runId === undefined || record.run.id === runId)) return record;
  }
  return null;
}

export function copyRun(run: SequenceRun): SequenceRun {
  return { ...run, steps: [...run.steps], args: [...run.args] };
}

function isRun(value: unknown): value is SequenceRun {
  if (typeof value !== "object" || value === null) return false;
  const run = value as Record<string, unknown>;
  const { id, sequenceId, steps, args, totalRuns, runIndex, stepIndex } = run;
  const isCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
  return (
    typeof id === "string" &&
    typeof sequenceId === "string" &&
    Array.isArray(steps) &&
    steps.length > 0 &&
    steps.every((step) => typeof step === "string") &&
    Array.isArray(args) &&
    args.every((arg) => typeof arg === "string") &&
    isCount(totalRuns) &&
    totalRuns >= 1 &&
    isCount(runIndex) &&
    runIndex < totalRuns &&
    isCount(stepIndex) &&
    stepIndex <= steps.length
  );
}

/** The arguments the newest run of this sequence on the branch used, if it has run here. */
export function lastRunArgs(branch: readonly SessionEntry[], sequenceId: string): string[] | undefined {
  for (const data of customDataNewestFirst(branch, SEQUENCE_RUN_TYPE)) {
    const run = (data as Partial<SequenceRunEntry> | undefined)?.run;
    if (run?.sequenceId === sequenceId && Array.isArray(run.args)) return run.args.filter((a) => typeof a === "string");
  }
  return undefined;
}
