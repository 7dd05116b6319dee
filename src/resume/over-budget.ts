/**
 * Why a brief came out larger than the budget asked for, in one sentence, or null when it did not. The ladder
 * trades size for a brief that validates; the caller says so (or refuses, under --strict) instead of handing over a
 * brief several times the size asked for without a word.
 */
import type { ResumeBrief, Validation } from "./brief-types.ts";
import { MIN_COVERAGE, MIN_OVERLAP } from "./validate.ts";

const n = (x: number) => x.toLocaleString("en-US");

export function overBudget(b: ResumeBrief): string | null {
  const asked = b.requested.budget_tokens;
  if (b.tokens <= asked) return null;
  const head = `the brief is ${n(b.tokens)} tokens, over the ${n(asked)} asked for`;
  const missing = whyNot(b.requested.validation);
  const last = b.fallback.at(-1);
  if (last === undefined) return `${head}: its header and pointers alone take more`;
  const chosen = b.fallback.find(
    (f) => f.step === "larger_budget" && f.validation.ok && f.budget_tokens === b.budget_tokens,
  );
  if (chosen) return `${head}: at ${n(asked)} ${missing}; ${n(b.budget_tokens)} is the smallest budget that validates`;
  if (last.step === "previous_checkpoint")
    return `${head}: at ${n(asked)} ${missing}, and no budget up to the ceiling validated; this brief is as of an earlier checkpoint`;
  return `${head}: at ${n(asked)} ${missing}, and nothing validated; it ends with a pointer to the transcript`;
}

/** What kept a brief from validating, as a clause: "it left out …" */
export function whyNot(v: Validation): string {
  const reasons: string[] = [];
  if (v.coverage < MIN_COVERAGE || v.constraint_coverage < 1 || v.open_failure_coverage < 1) {
    const some = v.missing
      .slice(0, 2)
      .map((m) => m.replace(/\s+/g, " ").slice(0, 80))
      .join("; ");
    const needs = [
      `coverage ${MIN_COVERAGE}`,
      ...(v.constraint_coverage < 1 ? ["every constraint"] : []),
      ...(v.open_failure_coverage < 1 ? ["every open failure"] : []),
    ].join(", ");
    const facts = `${v.missing.length} must-keep fact${v.missing.length === 1 ? "" : "s"}`;
    reasons.push(
      `left out ${facts} (coverage ${v.coverage.toFixed(2)}; needs ${needs}${some ? `; e.g. ${some}` : ""})`,
    );
  }
  if (v.entity_overlap < MIN_OVERLAP)
    reasons.push(
      `named too few of the session's files, commands and errors (overlap ${v.entity_overlap.toFixed(2)}, needs ${MIN_OVERLAP})`,
    );
  return `it ${reasons.length > 0 ? reasons.join(" and ") : "did not validate"}`;
}
