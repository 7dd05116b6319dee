/**
 * The resume engine: a cited brief of one session as of a cut, under a token budget, validated, with the fallback
 * ladder when validation fails. Pure over the store and the token counter it is given.
 */
import type { ReadonlyStore } from "../store/types.ts";
import type { ResumeBrief } from "./brief-types.ts";
import { type Attempt, buildAttempt, type Folded, fold } from "./build.ts";
import { type Checkpoint, checkpointForStep, listCheckpoints } from "./checkpoints.ts";
import { runLadder } from "./ladder.ts";
import { peopleView } from "./people.ts";
import { sourceLines } from "./render.ts";
import { loadChain, loadTimeline } from "./timeline.ts";
import type { TokenCounter } from "./tokens.ts";
import { mustKeep } from "./validate.ts";

export interface ResumeOptions {
  sessionId: string;
  /** Event id (or unique prefix): the brief as of that point, as if the session had ended there. */
  at?: string;
  /** Resume at step N: the brief as of step N's checkpoint, with step N's profile. */
  step?: number;
  /** Budget in tokens. */
  budget?: number;
  /** Budget as a share of the original (estimated) tokens. */
  ratio?: number;
  /** Follow one branch of a session tree up to this event (pi's current leaf). */
  leaf?: string;
  /** Run the fallback ladder when validation fails (default true). */
  ladder?: boolean;
  /** Ceiling of the ladder's larger budgets. */
  maxBudget?: number;
}

/** Without `--budget` or `--ratio`: a tenth of the session, at least 2k and at most 50k tokens. */
export const DEFAULT_RATIO = 0.1;
export const DEFAULT_MIN_BUDGET = 2_000;
export const DEFAULT_MAX_BUDGET = 50_000;
export const LADDER_MAX_BUDGET = 100_000;

export interface ResumeEngine {
  brief(options: ResumeOptions): ResumeBrief;
  checkpoints(sessionId: string): Checkpoint[];
}

export interface ResumeEngineDeps {
  store: ReadonlyStore;
  counter: TokenCounter;
}

export function budgetFor(options: Pick<ResumeOptions, "budget" | "ratio">, originalTokens: number): number {
  if (options.budget !== undefined) return Math.max(1, Math.floor(options.budget));
  if (options.ratio !== undefined) return Math.max(1, Math.round(options.ratio * originalTokens));
  return Math.min(DEFAULT_MAX_BUDGET, Math.max(DEFAULT_MIN_BUDGET, Math.round(DEFAULT_RATIO * originalTokens)));
}

export function createResumeEngine({ store, counter }: ResumeEngineDeps): ResumeEngine {
  return {
    checkpoints: (sessionId) => listCheckpoints(store, sessionId),
    brief(options) {
      if (options.at !== undefined && options.step !== undefined)
        throw new Error("give either an event (--at) or a step (--step), not both");
      // Read once: the session's events (with those of the work it carries on from) serve every cut below.
      const chain = loadChain(store, options.sessionId, options.leaf);
      const checkpoints = listCheckpoints(store, options.sessionId, chain.events);
      const at = options.step !== undefined ? checkpointForStep(checkpoints, options.step).event_id : options.at;
      const target = options.step ?? null;
      const foldAt = (c: { event_id: string; step: number }, step: number | null): Folded => {
        const t = loadTimeline(store, options.sessionId, { at: c.event_id, chain });
        return fold(t, checkpoints, step);
      };
      const timeline = loadTimeline(store, options.sessionId, { ...(at !== undefined ? { at } : {}), chain });
      const folded = fold(timeline, checkpoints, target);
      const budget = budgetFor(options, timeline.originalTokens);
      const first = buildAttempt(folded, counter, { budget });
      if (first.validation.ok || options.ladder === false) return result(folded, first, first, [], counter);
      const earlier = checkpoints.filter((c) => c.ordinal < timeline.cut.ordinal).reverse();
      const ladder = runLadder({
        folded,
        first,
        counter,
        maxBudget: Math.max(budget, options.maxBudget ?? LADDER_MAX_BUDGET),
        earlier,
        foldAt: (c) => foldAt(c, c.step),
      });
      return result(ladder.folded, ladder.attempt, first, ladder.fallback, counter);
    },
  };
}

function result(
  f: Folded,
  a: Attempt,
  first: Attempt,
  fallback: ResumeBrief["fallback"],
  counter: TokenCounter,
): ResumeBrief {
  const t = f.timeline;
  const lines = sourceLines(t);
  return {
    session_id: t.session.session_id,
    at: t.cut.event_id,
    step: a.step,
    budget_tokens: a.budget,
    tokens: a.tokens,
    original_tokens: t.originalTokens,
    ratio: a.validation.ratio,
    text: a.text,
    sections: a.summaries,
    citations: a.citations,
    validation: a.validation,
    must_keep: mustKeep(f.ledger),
    view: peopleView(a.sections, f.ledger, t),
    fallback,
    requested: { budget_tokens: first.budget, tokens: first.tokens, validation: first.validation },
    tokenizer: counter.name,
    source: { file: t.session.source_file, first_line: lines.first, last_line: lines.last },
  };
}
