/**
 * Sequence snapshots on the session tree (pure). Snapshots are `custom` entries: persisted with the session, never
 * part of the model's context, never labelled. Rehydration reads the current branch newest to oldest and takes the
 * first entry that is a valid snapshot, so abandoned branches and malformed entries never win.
 */
import type { SessionEntry } from "@earendil-works/pi-coding-agent";
import { customDataNewestFirst } from "../branch.ts";
import { type RecordedSequence, SEQUENCE_SNAPSHOT_TYPE, type SequenceSnapshotEntry } from "./types.ts";

export function toSnapshotEntry(sequence: RecordedSequence): SequenceSnapshotEntry {
  return { version: 1, sequenceId: sequence.id, steps: [...sequence.steps], updatedAt: sequence.updatedAt };
}

/** Validate one entry's `data`; anything that is not a complete version-1 snapshot is rejected. */
export function parseSnapshot(data: unknown): RecordedSequence | null {
  if (typeof data !== "object" || data === null) return null;
  const record = data as Record<string, unknown>;
  if (record["version"] !== 1) return null;
  const { sequenceId, steps, updatedAt } = record;
  if (typeof sequenceId !== "string" || sequenceId.length === 0) return null;
  if (typeof updatedAt !== "number" || !Number.isFinite(updatedAt)) return null;
  if (!Array.isArray(steps) || steps.length === 0) return null;
  if (!steps.every((step): step is string => typeof step === "string" && step.trim().length > 0)) return null;
  return { version: 1, id: sequenceId, steps: [...steps], updatedAt };
}

/** The newest valid snapshot on `branch` (root → leaf order, as `getBranch()` returns it), or null. */
export function latestSnapshot(branch: readonly SessionEntry[]): RecordedSequence | null {
  for (const data of customDataNewestFirst(branch, SEQUENCE_SNAPSHOT_TYPE)) {
    const parsed = parseSnapshot(data);
    if (parsed) return parsed;
  }
  return null;
}
