/**
 * A resume brief as every surface returns it: which session (an id, the latest in a folder, or the session of an
 * event), the engine's brief under the budget asked for (or under a cap a surface sets), and one JSON shape.
 */

import type { FallbackRecord, ResumeBrief, Validation } from "../resume/brief-types.ts";
import { budgetFor, createResumeEngine } from "../resume/engine.ts";
import { overBudget } from "../resume/over-budget.ts";
import type { TokenCounter } from "../resume/tokens.ts";
import { latestSession, resolveEventId, resolveSessionId } from "../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";

export interface BriefRequest {
  /** A session id or unique prefix; absent or `latest` for the latest main session (of `cwd` when given). */
  session?: string;
  /** With the latest session: the folder whose latest main session to brief. */
  cwd?: string;
  /** An event id (or prefix): the brief as of that event. Without a session or cwd it also picks the session. */
  at?: string;
  /** The brief as of step N's checkpoint. */
  step?: number;
  /** Budget in tokens, or as a share of the session. */
  budget?: number;
  ratio?: number;
  /** The largest brief the caller accepts: the default budget and the ratio are held under it, and so is the ladder. */
  cap?: number;
  /** Follow one branch of a session tree up to this event (pi's current leaf). */
  leaf?: string;
  /** false: the first brief within the budget, even when it does not validate (no fallback ladder). */
  ladder?: boolean;
}

/** What the JSON shows of a validation. */
type ShownValidation = Pick<Validation, "coverage" | "missing" | "entity_overlap" | "ok">;

/**
 * The brief's one JSON shape: the engine's brief without its internals (the tokenizer, the first try's figures),
 * and `budget_note`: why the brief's size is not the budget asked for, or null. Larger means the smallest budget
 * that validates, an earlier checkpoint or a pointer to the transcript; smaller means a surface's cap.
 */
export type BriefJson = Pick<
  ResumeBrief,
  | "session_id"
  | "at"
  | "step"
  | "budget_tokens"
  | "tokens"
  | "original_tokens"
  | "ratio"
  | "text"
  | "sections"
  | "citations"
  | "must_keep"
  | "view"
  | "source"
> & {
  validation: ShownValidation;
  fallback: Array<Omit<FallbackRecord, "validation"> & { validation: ShownValidation }>;
  budget_note: string | null;
};

export function briefSession(store: ReadonlyStore, req: BriefRequest): SessionRow {
  if (req.session !== undefined && req.session !== "latest") return resolveSessionId(store, req.session);
  if (req.at !== undefined && req.cwd === undefined)
    return resolveSessionId(store, resolveEventId(store, req.at).session_id);
  return latestSession(store, req.cwd);
}

/**
 * One counter for the process: its cache keeps the counts of every text already counted, so the next brief of
 * the same session (a page reloaded, the TUI's Brief tab opened again, a brief at another event) counts only
 * what changed. Counts depend on the text alone; the cache empties itself past its size.
 */
let sharedCounter: TokenCounter | null = null;

/**
 * Loads what a first brief needs (the engine's modules, the tokenizer's ranks) ahead of it: a server calls this
 * once it listens, so the first brief a page asks for costs what every later one does. Run from the sources, the
 * modules' load is most of a first brief.
 */
export async function warmBriefs(): Promise<void> {
  const { createTokenCounter } = await import("../resume/tokens.ts");
  sharedCounter ??= createTokenCounter();
  sharedCounter.count("warm");
}

/**
 * Briefs in this process count tokens by an estimate instead of exactly: two and a half ASCII characters a token,
 * each other character one. A session-start hook's one brief then loads no tokenizer, which was a fifth of its run
 * (docs/performance.md, "Issue 39"). The estimate is above o200k's count for the briefs of every real session
 * measured (from 3 % to 60 % above), so a brief within the budget by the estimate is within it by the tokenizer.
 */
export function estimateBriefTokens(): void {
  sharedCounter = { name: "estimate (≥ o200k)", count: estimatedTokens };
}

export function estimatedTokens(text: string): number {
  let other = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) other++;
  return Math.ceil((text.length - other) / 2.5) + other;
}

/** The brief of a request already checked against the question's rules (catalog/brief.ts). */
export async function buildBrief(store: ReadonlyStore, req: BriefRequest): Promise<BriefJson> {
  const session = briefSession(store, req);
  // The tokenizer's tables take most of a second to load: only a brief pays for them, not a server's start.
  sharedCounter ??= (await import("../resume/tokens.ts")).createTokenCounter();
  const engine = createResumeEngine({ store, counter: sharedCounter });
  const build = (budget: number | undefined) =>
    engine.brief({
      sessionId: session.session_id,
      ...(budget !== undefined ? { budget } : {}),
      ...(req.ratio !== undefined && budget === undefined ? { ratio: req.ratio } : {}),
      ...(req.cap !== undefined ? { maxBudget: req.cap } : {}),
      ...(req.at !== undefined ? { at: req.at } : {}),
      ...(req.step !== undefined ? { step: req.step } : {}),
      ...(req.leaf !== undefined ? { leaf: req.leaf } : {}),
      ...(req.ladder !== undefined ? { ladder: req.ladder } : {}),
    });
  if (req.cap === undefined || req.budget !== undefined) {
    const b = build(req.budget);
    return briefJson(b, overBudget(b));
  }
  // The session's size is known only once a brief is built: build at the cap, then smaller if the default (or the
  // ratio) asks for less.
  let brief = build(req.cap);
  const wanted = budgetFor(req.ratio !== undefined ? { ratio: req.ratio } : {}, brief.original_tokens);
  let note: string | null = null;
  if (wanted < req.cap) brief = build(wanted);
  else if (wanted > req.cap)
    note = `${req.ratio !== undefined ? `ratio ${req.ratio}` : "the default budget"} asks for ${wanted} tokens; briefs here are capped at ${req.cap} (run 'cairn resume ${brief.session_id}' for the larger brief)`;
  return briefJson(brief, note);
}

export function briefJson(b: ResumeBrief, budgetNote: string | null): BriefJson {
  const validation = (v: Validation): ShownValidation => ({
    coverage: v.coverage,
    missing: v.missing,
    entity_overlap: v.entity_overlap,
    ok: v.ok,
  });
  return {
    session_id: b.session_id,
    at: b.at,
    step: b.step,
    budget_tokens: b.budget_tokens,
    tokens: b.tokens,
    original_tokens: b.original_tokens,
    ratio: b.ratio,
    text: b.text,
    sections: b.sections,
    citations: b.citations,
    validation: validation(b.validation),
    must_keep: b.must_keep,
    view: b.view,
    fallback: b.fallback.map((f) => ({ ...f, validation: validation(f.validation) })),
    source: b.source,
    budget_note: budgetNote,
  };
}
