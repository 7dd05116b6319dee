/**
 * Checkpoints of a session: its `resume_point` events (compactions, branch summaries, handoffs, labels, sequence
 * steps, checkpoints an agent wrote) and the explicit ones recorded with `cairn checkpoint`. Each has a step: its
 * own when it names one, otherwise one more than the checkpoint before it, so a session's checkpoints read as
 * steps 1, 2, 3, … A checkpoint of step N is where step N resumes from.
 */
import type { ReadonlyStore } from "../store/types.ts";
import { clip, headline } from "../topology/text.ts";
import type { SessionEvent } from "../topology/types.ts";

export interface Checkpoint {
  /** The event the checkpoint sits at: the resume point itself, or the event an explicit one was linked to. */
  event_id: string;
  ordinal: number;
  step: number;
  /** `explicit` for `cairn checkpoint`; otherwise the resume point's kind (compaction, handoff, …). */
  kind: string;
  label: string | null;
  /** The row id of an explicit checkpoint. */
  checkpoint_id: string | null;
  timestamp: string | null;
}

export function listCheckpoints(
  store: ReadonlyStore,
  sessionId: string,
  events?: readonly SessionEvent[],
): Checkpoint[] {
  const all = events ?? store.sessionEvents(sessionId);
  const raw: Array<Omit<Checkpoint, "step"> & { ownStep: number | null; order: number }> = [];
  for (const e of all) {
    if (e.event_type !== "resume_point") continue;
    const kind = typeof e.meta["kind"] === "string" ? (e.meta["kind"] as string) : "resume_point";
    raw.push({
      event_id: e.event_id,
      ordinal: e.ordinal,
      kind,
      label: labelOf(e),
      checkpoint_id: null,
      timestamp: e.timestamp,
      ownStep: stepOf(e.meta),
      order: 0,
    });
  }
  const byId = events ? new Map(events.map((e) => [e.event_id, e])) : null;
  for (const c of store.listCheckpoints(sessionId)) {
    if (c.event_id === null) continue;
    const e = byId ? byId.get(c.event_id) : store.getEvent(c.event_id);
    if (!e) continue; // linked past the cut (when `events` is a prefix) or to an event no longer indexed
    raw.push({
      event_id: e.event_id,
      ordinal: e.ordinal,
      kind: "explicit",
      label: c.label,
      checkpoint_id: c.checkpoint_id,
      timestamp: c.created_at,
      ownStep: c.step,
      order: 1,
    });
  }
  raw.sort((a, b) => a.ordinal - b.ordinal || a.order - b.order);
  let previous = 0;
  return raw.map(({ ownStep, order: _order, ...c }) => {
    const step = ownStep ?? previous + 1;
    previous = step;
    return { ...c, step };
  });
}

/** A resume point's first line; for a handoff that says where it was going, that direction (not its brief's title). */
function labelOf(e: SessionEvent): string | null {
  const direction = e.meta["direction"];
  const line = typeof direction === "string" && direction.trim() !== "" ? headline(direction) : headline(e.text);
  return line === "" ? null : clip(line, 120);
}

/** A step number the workflow wrote into a resume point (`step`, `step_number` or `stepNumber`). */
function stepOf(meta: Record<string, unknown>): number | null {
  for (const key of ["step", "step_number", "stepNumber"]) {
    const v = meta[key];
    if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  }
  return null;
}

/** The latest checkpoint of step N, or a usage error naming the steps there are. */
export function checkpointForStep(checkpoints: readonly Checkpoint[], step: number): Checkpoint {
  for (let i = checkpoints.length - 1; i >= 0; i--) if (checkpoints[i]!.step === step) return checkpoints[i]!;
  const steps = [...new Set(checkpoints.map((c) => c.step))];
  throw new Error(
    steps.length === 0
      ? `the session has no checkpoints; record one with 'cairn checkpoint <session> --step ${step}'`
      : `no checkpoint for step ${step}; the session has step${steps.length === 1 ? "" : "s"} ${steps.join(", ")}`,
  );
}

/** The last checkpoint strictly before an ordinal: where the ladder falls back to. */
export function checkpointBefore(checkpoints: readonly Checkpoint[], ordinal: number): Checkpoint | null {
  let out: Checkpoint | null = null;
  for (const c of checkpoints) if (c.ordinal < ordinal) out = c;
  return out;
}

/** The last checkpoint at or before an ordinal: the step the session was on there. */
export function checkpointAtOrBefore(checkpoints: readonly Checkpoint[], ordinal: number): Checkpoint | null {
  let out: Checkpoint | null = null;
  for (const c of checkpoints) if (c.ordinal <= ordinal) out = c;
  return out;
}
