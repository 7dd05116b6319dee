/**
 * The fallback ladder (resume-method §4.7, the seed's "restart from an earlier checkpoint"): when a brief does not
 * validate, first give the ledger more of the same budget, then look for the smallest larger budget whose brief does (double until one validates or the ceiling is
 * reached, then halve the gap to the last that failed until the two are within 5 %), then the previous checkpoints
 * (the brief as of each, with a pointer to what came after), and finally the first brief with a pointer to the full
 * transcript (path and line range) and the facts it could not hold. Every step is recorded.
 */
import type { FallbackRecord } from "./brief-types.ts";
import { type Attempt, buildAttempt, type Folded } from "./build.ts";
import type { Checkpoint } from "./checkpoints.ts";
import { sourceLines, transcriptPointer } from "./render.ts";
import type { TokenCounter } from "./tokens.ts";

/** Each larger budget doubles the last until one validates. */
export const LADDER_GROWTH = 2;
/** The search for the smallest budget that validates stops when the gap is this share of it, or MIN_GAP tokens. */
export const LADDER_PRECISION = 0.05;
const MIN_GAP = 50;
/** Shares of the room the ledger may take, beyond the first attempt's, before the budget grows. */
const FULLER_LEDGER = [0.6, 0.8] as const;
/** How many earlier checkpoints the ladder tries before it settles for the transcript pointer. */
export const MAX_CHECKPOINT_STEPS = 3;

export interface LadderInput {
  folded: Folded;
  first: Attempt;
  counter: TokenCounter;
  /** Larger budgets stop here. */
  maxBudget: number;
  /** Checkpoints before the cut, newest first. */
  earlier: readonly Checkpoint[];
  /** Folds the session as of an earlier checkpoint. */
  foldAt: (c: Checkpoint) => Folded;
}

export interface LadderResult {
  attempt: Attempt;
  folded: Folded;
  fallback: FallbackRecord[];
}

function record(step: FallbackRecord["step"], a: Attempt, at: string): FallbackRecord {
  return { step, budget_tokens: a.budget, at, tokens: a.tokens, validation: a.validation };
}

export function runLadder(input: LadderInput): LadderResult {
  const { folded, first, counter } = input;
  const t = folded.timeline;
  const fallback: FallbackRecord[] = [];

  // The ledger's optional lines (resolved failures, files only read, settled decisions) shrink early to leave a
  // small brief's room to what the next turns use; when that costs the brief its hold on the session's files,
  // commands and errors, a fuller ledger at the same budget comes before any growth.
  for (const ledgerShare of FULLER_LEDGER) {
    const a = buildAttempt(folded, counter, { budget: first.budget, ledgerShare });
    fallback.push(record("fuller_ledger", a, t.cut.event_id));
    if (a.validation.ok) return { attempt: a, folded, fallback };
  }

  const larger = smallestLarger(folded, counter, first.budget, input.maxBudget, (a) =>
    fallback.push(record("larger_budget", a, t.cut.event_id)),
  );
  if (larger) return { attempt: larger, folded, fallback };

  const cutLines = sourceLines(t);
  for (const c of input.earlier.slice(0, MAX_CHECKPOINT_STEPS)) {
    const earlier = input.foldAt(c);
    const since = sourceLines(earlier.timeline).last + 1;
    const pointer = transcriptPointer({
      file: t.session.source_file,
      first: Math.min(since, cutLines.last),
      last: cutLines.last,
      reason: `This brief is as of the checkpoint at @${c.ordinal} (step ${c.step}); the session went on after it to @${t.cut.ordinal}.`,
      missing: [],
      cite: c.event_id,
    });
    const a = buildAttempt(earlier, counter, { budget: first.budget, pointer });
    fallback.push(record("previous_checkpoint", a, c.event_id));
    if (a.validation.ok) return { attempt: a, folded: earlier, fallback };
  }

  const pointer = transcriptPointer({
    file: t.session.source_file,
    first: cutLines.first,
    last: cutLines.last,
    reason: "This brief could not hold everything it should.",
    missing: first.validation.missing.slice(0, 20),
    cite: t.cut.event_id,
  });
  const a = buildAttempt(folded, counter, { budget: first.budget, pointer });
  fallback.push(record("transcript_pointer", a, t.cut.event_id));
  return { attempt: a, folded, fallback };
}

/**
 * The brief of the smallest budget above `failed` (whose brief did not validate) that validates, give or take
 * LADDER_PRECISION, or null when none up to `max` does. Validation grows with the budget (more of the must-keep
 * facts fit), so doubling finds a budget that validates and halving the gap closes in on the smallest.
 */
function smallestLarger(
  folded: Folded,
  counter: TokenCounter,
  failed: number,
  max: number,
  onAttempt: (a: Attempt) => void,
): Attempt | null {
  const attempt = (budget: number) => {
    const a = buildAttempt(folded, counter, { budget });
    onAttempt(a);
    return a;
  };
  let lo = failed;
  let ok: Attempt | null = null;
  while (ok === null && lo < max) {
    const a = attempt(Math.min(max, Math.round(lo * LADDER_GROWTH)));
    if (a.validation.ok) ok = a;
    else lo = a.budget;
  }
  if (ok === null) return null;
  while (ok.budget - lo > Math.max(MIN_GAP, lo * LADDER_PRECISION)) {
    const a = attempt(Math.round((lo + ok.budget) / 2));
    if (a.validation.ok) ok = a;
    else lo = a.budget;
  }
  return ok;
}
