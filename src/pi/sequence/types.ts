/**
 * The sequence data model from seed 001. Raw authored steps are the only source of truth: they are what gets
 * persisted, previewed and carried across session resets. Everything executable is derived from them again, from
 * pi's current command metadata, right before it runs.
 */

/** `customType` of the session entries that hold sequence snapshots. */
export const SEQUENCE_SNAPSHOT_TYPE = "cairn-sequence";

/** The persisted shape: one custom entry per recorded or edited sequence. Never enters the model's context. */
export interface SequenceSnapshotEntry {
  version: 1;
  sequenceId: string;
  steps: string[];
  updatedAt: number;
}

/** The in-memory form of the latest snapshot on the current branch. */
export interface RecordedSequence {
  version: 1;
  id: string;
  /** Exact authored input, one step per entry. */
  steps: string[];
  updatedAt: number;
}

/**
 * Progress of a run. Plain serializable data: this, and nothing session-bound, is what crosses `ctx.newSession()`.
 * `runIndex` and `stepIndex` are zero-based; `stepIndex` is the next step to execute.
 */
export interface SequenceRun {
  id: string;
  sequenceId: string;
  steps: string[];
  args: string[];
  totalRuns: number;
  runIndex: number;
  stepIndex: number;
}

/** Sequence state of one extension instance: a cache of the branch plus the run this instance is executing. */
export interface SequenceState {
  /** Rehydrated from custom entries on the current branch. */
  lastRecorded: RecordedSequence | null;
  /** Transient; cleared when the run finishes, fails or is cancelled. */
  activeRun: SequenceRun | null;
}

/** The commands this extension implements itself and can therefore run from a sequence through shared functions. */
export const AGENTICODING_COMMAND_NAMES = ["readonly", "handoff", "notebook"] as const;
export type AgenticodingCommandName = (typeof AGENTICODING_COMMAND_NAMES)[number];

/**
 * A raw step resolved against the current command metadata, in the seed's shape. For `/readonly`, `args` is the
 * mode the step sets (`on` or `off`; plain `/readonly` means `on`).
 */
export type ResolvedStep =
  | { kind: "prompt"; raw: string; text: string }
  | { kind: "agenticodingCommand"; raw: string; name: AgenticodingCommandName; args: string }
  | { kind: "template"; raw: string; name: string; args: string; sourcePath: string }
  | { kind: "skill"; raw: string; name: string; args: string; sourcePath: string }
  | { kind: "compact"; raw: string; instructions?: string };

export type ResolvedStepKind = ResolvedStep["kind"];
