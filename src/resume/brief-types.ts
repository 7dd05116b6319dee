/** The brief as built: sections of cited items, and the result the engine returns. */

/** One line (or one multi-line block) of a brief. Headings have no cites; every fact has at least one. */
export interface BriefItem {
  /** What the item is: `goal`, `constraint`, `file`, `failure`, `excerpt`, `file_content`, `heading`, … */
  field: string;
  text: string;
  /** Every event the item came from (the text shows the first and last). */
  cites: string[];
}

export const SECTION_NAMES = ["header", "ledger", "context", "names", "files", "recent", "transcript"] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

export interface BriefSection {
  name: SectionName;
  items: BriefItem[];
}

/** The brief for a person (resume/people.ts builds it). */
export interface ViewQuote {
  text: string;
  turn: number;
  cites: string[];
}

export interface ViewItem {
  /** What the item is (`constraint`, `file_modified`, `check`, …), as the model's brief names it. */
  field: string;
  /** Markdown, one item: no list bullet and no citation marks. */
  text: string;
  cites: string[];
}

export interface ViewSection {
  title: string;
  items: ViewItem[];
}

export interface CitePreview {
  event_type: string;
  role: string | null;
  ordinal: number;
  timestamp: string | null;
  /** The event's first lines, clipped. */
  text: string;
}

export interface BriefView {
  goal: ViewQuote | null;
  /** The latest request, when it is not the goal itself. */
  latest: ViewQuote | null;
  /** Where the work happened and how much of it the brief covers. */
  facts: {
    provider: string;
    cwd: string | null;
    branch: string | null;
    until: string | null;
    events: number;
  };
  /** Never an empty one. */
  sections: ViewSection[];
  /** What each cited event says, for a preview beside the citation. */
  cited: Record<string, CitePreview>;
}

export interface Validation {
  /** Share of the must-keep facts found in the brief. */
  coverage: number;
  /** Must-keep facts not found, as `kind: text`. */
  missing: string[];
  /** Coverage of constraints and of open failures alone (both must be 1). */
  constraint_coverage: number;
  open_failure_coverage: number;
  /** Weighted Jaccard over files, command heads and error signatures: session as of the cut vs the brief. */
  entity_overlap: number;
  /** Brief tokens / original tokens. */
  ratio: number;
  ok: boolean;
}

export const FALLBACK_STEPS = ["fuller_ledger", "larger_budget", "previous_checkpoint", "transcript_pointer"] as const;
export type FallbackStep = (typeof FALLBACK_STEPS)[number];

export interface FallbackRecord {
  step: FallbackStep;
  budget_tokens: number;
  at: string;
  tokens: number;
  validation: Validation;
}

export interface SectionSummary {
  name: SectionName;
  tokens: number;
  items: number;
  cites: string[];
}

export interface CitationRef {
  event_id: string;
  ordinal: number;
  event_type: string;
  source_file: string;
  source_line: number;
}

export const MUST_KEEP_KINDS = [
  "modified_file",
  "open_failure",
  "failing_check",
  "failing_test",
  "open_decision",
  "plan_item",
  "constraint",
  "step",
  "latest_request",
] as const;
export type MustKeepKind = (typeof MUST_KEEP_KINDS)[number];

/** A fact the brief must hold word for word (validation looks for it; so does the check of an AI-written brief). */
export interface MustKeep {
  kind: MustKeepKind;
  /** What must appear in the brief (a prefix of the fact when the fact itself may be clipped). */
  needle: string;
  /** The same fact as people read it (an open failure's error line, where the needle is its signature). */
  shown?: string;
}

export interface ResumeBrief {
  session_id: string;
  /** The event the brief is as of. */
  at: string;
  step: number | null;
  budget_tokens: number;
  /** Exact tokens of `text` (o200k). */
  tokens: number;
  /** Estimated tokens of the session up to `at` (what the agent saw). */
  original_tokens: number;
  ratio: number;
  text: string;
  sections: SectionSummary[];
  /** Every cited event, in timeline order. */
  citations: CitationRef[];
  validation: Validation;
  /** The facts the brief had to keep, as validation looked for them. */
  must_keep: MustKeep[];
  /** The same brief for a person: headline, non-empty sections, citations beside the text. */
  view: BriefView;
  /** The ladder's steps when the first brief did not validate; empty when it did. */
  fallback: FallbackRecord[];
  /** The budget asked for and how the brief built at it validated (the same as above when no ladder ran). */
  requested: { budget_tokens: number; tokens: number; validation: Validation };
  tokenizer: string;
  source: { file: string; first_line: number; last_line: number };
}
