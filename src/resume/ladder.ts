/**
 * The fallback ladder (resume-method §4.7, the seed's "restart from an earlier checkpoint"): when a brief does not
 * validate, try a larger budget (0.2, 0.3, 0.5 of the original, or twice the budget when it is already above
 * those, up to a ceiling), then the previous checkpoints
 * (the brief as of each, with a pointer to what came after), and finally the first brief with a pointer to the full
 * transcript (path and line range) and the facts it could not hold. Every step is recorded.
 */
import type { FallbackRecord } from "./brief-types.ts";
import { type Attempt, buildAttempt, type Folded } from "./build.ts";
import type { Checkpoint } from "./checkpoints.ts";
import { sourceLines, transcriptPointer } from "./render.ts";
import type { TokenCounter } from "./tokens.ts";

export const LADDER_RATIOS = [0.2, 0.3, 0.5] as const;
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

  let tried = first.budget;
  // A budget already above half the session (small sessions, generous budgets) still gets one larger try.
  const larger = LADDER_RATIOS.map((r) => Math.round(r * t.originalTokens)).filter((b) => b > first.budget);
  if (larger.length === 0) larger.push(2 * first.budget);
  for (const wanted of larger) {
    const budget = Math.min(input.maxBudget, wanted);
    if (budget <= tried) continue;
    tried = budget;
    const a = buildAttempt(folded, counter, { budget });
    fallback.push(record("larger_budget", a, t.cut.event_id));
    if (a.validation.ok) return { attempt: a, folded, fallback };
  }

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
