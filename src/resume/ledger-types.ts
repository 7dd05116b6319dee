/**
 * The ledger: what a brief always carries, derived from the timeline by explicit rules (resume-method §4.4).
 * Positions are event ordinals; `cites` are the event ids each item came from, oldest first.
 */

export interface Cited {
  cites: string[];
}

export interface LedgerMessage extends Cited {
  text: string;
  ordinal: number;
  turn: number;
  /** A log or trace the person pasted is named, not quoted: the message itself is not here whole. */
  pastes?: number;
}

export interface LedgerRequest extends Cited {
  /** The request as typed, on one line. */
  text: string;
  turn: number;
  ordinal: number;
  /** failed, abandoned, or for the latest request in progress or awaiting the user (the agent answered and stopped). */
  outcome: string;
  why: string;
}

export interface LedgerConstraint extends Cited {
  /** The user's sentence, verbatim. */
  text: string;
  turn: number;
  ordinal: number;
}

export const DECISION_STATUSES = ["open", "settled", "superseded"] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export interface LedgerDecision extends Cited {
  text: string;
  status: DecisionStatus;
  /** The rule that found the decision (`user_correction`, `assistant_decision`, …). */
  rule: string;
  ordinal: number;
  /** What settled or superseded it. */
  by: string | null;
  /** Who made it. */
  who: "user" | "agent";
  /** The message it was read from. */
  source: string | null;
}

export interface LedgerFile extends Cited {
  /** File key (absolute when the working directory is known). */
  key: string;
  /** As shown: relative to the session's working directory when inside it. */
  path: string;
  reads: number;
  edits: number;
  writes: number;
  added: number;
  removed: number;
  failedEdits: number;
  firstOrdinal: number;
  lastOrdinal: number;
  deleted: boolean;
  movedTo: string | null;
  /** Edited, written, moved or deleted in the session. */
  modified: boolean;
}

export const FAILURE_STATUSES = ["open", "resolved"] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

export interface LedgerFailure extends Cited {
  /** `canonical command | path | signature`: what groups repeats. */
  key: string;
  /** Canonical command, or the tool's name when the failure is not a shell command. */
  command: string;
  path: string | null;
  signature: string;
  code: string | null;
  count: number;
  first: number;
  last: number;
  status: FailureStatus;
  /** The event that resolved the group (a passing run, a successful edit). */
  resolvedBy: {
    id: string;
    ordinal: number;
    /** The run that answered it failed too, without reporting this error any more. */
    failed?: true;
  } | null;
  /** The raw error line of the last occurrence. */
  lastLine: string;
  isCheck: boolean;
  /** The user pasted it (a log or trace in their message), not a tool of the session's. */
  pasted?: true;
}

export interface LedgerCheck extends Cited {
  family: string;
  command: string;
  runs: number;
  fails: number;
  /** Status of the check's last run: pass, fail or unknown. */
  status: string;
  ordinal: number;
  passed: number | null;
  failed: number | null;
  failingTests: string[];
  errorLines: string[];
  /** Still failing, but a later passing check (of any family) has since answered it: listed with the passing. */
  answered: boolean;
}

export const PLAN_STATES = ["pending", "in_progress", "completed"] as const;
export type PlanState = (typeof PLAN_STATES)[number];

export interface LedgerPlanItem extends Cited {
  text: string;
  state: PlanState;
  /** The plan file, or the tool (`TodoWrite`, `update_plan`) that holds the list. */
  source: string;
  ordinal: number;
}

export interface LedgerStep extends Cited {
  /** The step being resumed (`--step`, or the checkpoint the cut sits at). */
  target: number | null;
  /** The step of the latest checkpoint at or before the cut. */
  checkpointStep: number | null;
  checkpointOrdinal: number | null;
  label: string | null;
  /** What is in progress: the in-progress plan item, else the first open one. */
  current: string | null;
}

export interface LedgerCommand extends Cited {
  head: string;
  runs: number;
  fails: number;
  /** The ways it was run (`commandForm`), most runs first. */
  forms: Array<{ form: string; runs: number; fails: number }>;
}

/** A notebook page as it stands at the cut: its name and first line (the page itself is in the notebook). */
export interface LedgerPage extends Cited {
  name: string;
  firstLine: string;
  ordinal: number;
}

/** The brief another session handed this one (cairn's `/handoff`), named rather than restated. */
export interface LedgerHandoff extends Cited {
  /** The session the brief was built from. */
  from: string;
  ordinal: number;
}

export interface Ledger {
  goal: LedgerMessage | null;
  /** The latest typed requests, newest last: the last one, and those before it while it is a short follow-up. */
  latest: LedgerMessage[];
  /** Requests that did not end done, and the one in progress, with their last outcome, oldest first. */
  requests: LedgerRequest[];
  constraints: LedgerConstraint[];
  decisions: LedgerDecision[];
  files: LedgerFile[];
  failures: LedgerFailure[];
  /** The last run of each check family, newest first. */
  checks: LedgerCheck[];
  commands: LedgerCommand[];
  plan: LedgerPlanItem[];
  step: LedgerStep;
  /** The notebook's pages at the cut, by name. */
  notebook: LedgerPage[];
  /** The latest brief handed over from another session: what the ledger says is what happened since. */
  handoff: LedgerHandoff | null;
}
