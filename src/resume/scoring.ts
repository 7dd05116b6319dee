/**
 * Scoring of older units (resume-method §4.5):
 *   score = w_kind · (α + recency) · stepMultiplier + β · min(3, refs to hot files and open failures)
 *         + γ · [source of an open failure or open decision]
 *   priority = score / √tokens
 * with recency = exp(−(N − i)/τ), τ = N/3. Step multipliers play the seed's step-dependent queries: early steps
 * favour specs and decisions, middle steps errors and test output, late steps modified files and checks.
 */
import type { Ledger } from "./ledger-types.ts";
import type { Unit } from "./units.ts";

export const CATEGORIES = [
  "spec",
  "decision",
  "test_file",
  "pattern_read",
  "error",
  "run_output",
  "test_result",
  "check",
  "plan",
  "modified_file",
  "architecture",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const PROFILE_NAMES = ["neutral", "early", "runtime", "tests", "quality", "loop", "final"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The seed's step profiles over the 9-step workflow (resume-method §4.5 table). */
export const PROFILES: Record<ProfileName, Partial<Record<Category, number>>> = {
  neutral: {},
  early: { spec: 2, decision: 2, test_file: 2, pattern_read: 1.5 },
  runtime: { error: 2, run_output: 2 },
  tests: { test_result: 2, test_file: 2, error: 1.5 },
  quality: { check: 2, error: 1.5 },
  loop: { plan: 2, spec: 1.5 },
  final: { modified_file: 2, architecture: 2 },
};

export function profileForStep(step: number | null): ProfileName {
  if (step === null) return "neutral";
  if (step <= 3) return "early";
  if (step === 4) return "runtime";
  if (step <= 6) return "tests";
  if (step === 7) return "quality";
  if (step === 8) return "loop";
  return "final";
}

export const WEIGHTS = { user: 5, resume_point: 4, error: 3, assistant: 2, check: 2, tool: 1 } as const;
const ALPHA = 0.4;
const BETA = 0.3;
const GAMMA = 1.0;

const TEST_FILE = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[\w]+$|_test\.\w+$/;
const DOC_FILE = /\.(md|mdx|txt|rst|adoc)$/i;
const ARCHITECTURE = /(^|\/)(README|ARCHITECTURE|DESIGN|CONTRIBUTING|AGENTS|CLAUDE)[^/]*$|(^|\/)docs?\//i;

export function categoriesOf(u: Unit): Set<Category> {
  const out = new Set<Category>();
  if (u.kind === "resume_point" || (u.kind === "user" && u.call.text.length >= 400)) out.add("spec");
  if (u.derived.some((d) => d.event_type === "decision")) out.add("decision");
  if (u.failed || u.derived.some((d) => d.event_type === "error")) out.add("error");
  if (u.command !== null) out.add("run_output");
  if (u.family === "test") out.add("test_result");
  else if (u.family !== null) out.add("check");
  if (/todo|plan/i.test(u.tool ?? "")) out.add("plan");
  for (const f of u.files) {
    if (TEST_FILE.test(f.key)) out.add("test_file");
    if (f.op === "edit" || f.op === "write") out.add("modified_file");
    if (f.op === "read" || f.op === "") {
      if (ARCHITECTURE.test(f.key)) out.add("architecture");
      if (DOC_FILE.test(f.key)) out.add("spec");
      else out.add("pattern_read");
    }
    if (/(^|\/)(plan|todo|roadmap)[^/]*\.md$/i.test(f.key) && f.op !== "read") out.add("plan");
  }
  return out;
}

/**
 * A message of a few words with no file, command or failure ("continue", "Request was aborted.", "Now let's run the
 * checks:") says nothing the next turns can use; it would fill what a small brief leaves, priority being per token.
 */
const TRIVIAL_WORDS = 4;

export function trivial(u: Unit): boolean {
  // A request's outcome is derived from every request, however empty; errors, checks and decisions are not.
  if (u.kind === "tool" || u.files.length > 0 || u.failed || u.derived.some((d) => d.event_type !== "outcome"))
    return false;
  return u.call.text.trim().split(/\s+/).length <= TRIVIAL_WORDS;
}

function kindWeight(u: Unit): number {
  if (u.kind !== "tool") return WEIGHTS[u.kind];
  if (u.failed) return WEIGHTS.error;
  if (u.family !== null) return WEIGHTS.check;
  return WEIGHTS.tool;
}

export interface ScoreContext {
  /** Number of units (N) and each unit's index, for recency. */
  count: number;
  hotFiles: ReadonlySet<string>;
  /** Event ids behind open failures and open decisions. */
  openSources: ReadonlySet<string>;
  profile: ProfileName;
}

export function scoringContext(units: readonly Unit[], ledger: Ledger, profile: ProfileName): ScoreContext {
  const hotFiles = new Set(ledger.files.filter((f) => f.modified).map((f) => f.key));
  const openSources = new Set<string>();
  for (const f of ledger.failures) if (f.status === "open") for (const id of f.cites) openSources.add(id);
  for (const d of ledger.decisions) if (d.status === "open") for (const id of d.cites) openSources.add(id);
  return { count: units.length, hotFiles, openSources, profile };
}

export function scoreUnit(u: Unit, index: number, ctx: ScoreContext): number {
  const tau = Math.max(1, ctx.count / 3);
  const recency = Math.exp(-(ctx.count - 1 - index) / tau);
  let mult = 1;
  const profile = PROFILES[ctx.profile];
  for (const c of categoriesOf(u)) mult = Math.max(mult, profile[c] ?? 1);
  let refs = 0;
  for (const f of u.files) if (ctx.hotFiles.has(f.key)) refs++;
  if (u.failed) refs++;
  const sourceOfOpen =
    u.cites.some((id) => ctx.openSources.has(id)) || u.derived.some((d) => ctx.openSources.has(d.event_id));
  return kindWeight(u) * (ALPHA + recency) * mult + BETA * Math.min(3, refs) + (sourceOfOpen ? GAMMA : 0);
}

export function priority(score: number, tokens: number): number {
  return score / Math.sqrt(Math.max(1, tokens));
}
