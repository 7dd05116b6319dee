/**
 * What the page reads from the history API: the fields of the application layer's answers (`src/app/`) that the
 * history views show. Written out here, without imports, because the page compiles without Node's types;
 * `server/history-shapes.ts` checks at compile time that the app's answers still have these fields.
 */

export interface SessionSummary {
  session_id: string;
  /** The fewest leading characters of `session_id` that name it: what the page shows (and cairn accepts). */
  session_short: string;
  provider: string;
  kind: string;
  cwd: string | null;
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  parent_session_id: string | null;
  parent_session_short: string | null;
  git_branch: string | null;
  model: string | null;
  source_file: string;
  event_count: number;
  prompt_count: number;
  tool_count: number;
  error_count: number;
  test_count: number;
  resume_count: number;
  /** Set when the transcript file is no longer on disk: the session is kept, its source is gone. */
  source_gone?: boolean;
}

/** `GET /api/history/sessions`: the sessions, newest first (the same list `cairn sessions --json` prints). */
export type SessionsAnswer = SessionSummary[];

export interface EvidenceStep {
  event_id: string;
  event_type: string;
  text: string;
}

export interface SearchHitView {
  event_id: string;
  session_id: string;
  /** The fewest leading characters of `session_id` that name it: what the page shows (and cairn accepts). */
  session_short: string;
  provider: string;
  project: string | null;
  timestamp: string | null;
  event_type: string;
  status: string | null;
  /** A window of the text with matches marked «like this». */
  snippet: string;
  evidence: EvidenceStep[];
  /** One line: what matched, e.g. "words #2 + meaning #5 (0.61)". */
  why: string;
  source_gone?: boolean;
}

export interface SearchAnswer {
  query: string;
  mode: string;
  notice: string | null;
  /** The embedder that judged meaning, null for words alone. */
  meaning_by: string | null;
  hits: SearchHitView[];
  took_ms: number;
}

export interface TimelineRowView {
  event_id: string;
  ordinal: number;
  timestamp: string | null;
  event_type: string;
  /** prompt, reply, call, output, error, test_pass, test_fail, test_unknown, decision, resume, note, file, command */
  mark: string;
  summary: string;
  depth: number;
  sidechain: boolean;
  branch_from: string | null;
  status: string | null;
}

export interface ThreadRowView extends TimelineRowView {
  session_id: string;
  session_short: string;
  provider: string;
}

export interface TimelineAnswer {
  session: SessionSummary;
  window: { from: number; to: number };
  rows: TimelineRowView[];
  earlier: { to: number } | null;
  later: { from: number } | null;
}

export interface EventView {
  event_id: string;
  session_id: string;
  /** The fewest leading characters of `session_id` that name it: what the page shows (and cairn accepts). */
  session_short: string;
  provider: string;
  ordinal: number;
  timestamp: string | null;
  role: string | null;
  event_type: string;
  text: string;
  tool_name: string | null;
  command: string | null;
  file_path: string | null;
  status: string | null;
  parent_event_id: string | null;
  source_file: string;
  source_line: number;
  turn: number;
}

export interface EdgeView {
  edge_type: string;
  other: string;
  other_kind: "event" | "entity" | "session" | "unknown";
  other_type: string | null;
  display: string;
}

export interface ChainStep {
  event_id: string;
  event_type: string;
  status: string | null;
  ordinal: number;
  text: string;
}

export interface EventDetailAnswer {
  event: EventView;
  edges: { out: EdgeView[]; in: EdgeView[] };
  session: SessionSummary;
  /** From the event's source upwards (the call behind a result, the message behind the call). */
  chain: ChainStep[];
}

/** A mark on a block: a failure, a check, a decision, a resume point (app/export/blocks.ts). */
export interface MarkView {
  type: string;
  glyph: string;
  text: string;
  event_id: string;
}

/** A tool call's input in the agent-neutral vocabulary (topology/tool-call-input.ts). */
export interface TypedInput {
  kind: string;
  path?: string;
  edits?: { old: string; new?: string; all?: boolean }[];
  content?: string;
  command?: string;
  pattern?: string;
  patch?: string;
  todos?: { text: string; status: string }[];
}

export type ConversationItemView =
  | {
      kind: "message";
      who: "user" | "assistant" | "system";
      event_id: string;
      time: string | null;
      text: string;
      status: string | null;
      marks: MarkView[];
    }
  | {
      kind: "tool";
      name: string;
      summary: string;
      event_id: string;
      time: string | null;
      input: { text: string; cut: number };
      typed: TypedInput | null;
      output: { text: string; cut: number } | null;
      exit_code: number | null;
      status: string | null;
      marks: MarkView[];
    }
  | { kind: "mark"; mark: MarkView; time: string | null }
  | { kind: "subagent"; session: SessionSummary; time: string | null; items: ConversationItemView[] }
  | { kind: "inherited"; from: SessionSummary | null; time: string | null; items: ConversationItemView[] };

export interface ConversationAnswer {
  session: SessionSummary;
  items: ConversationItemView[];
  focus: string | null;
}

/** The brief for a person (resume/people.ts). */
export interface BriefView {
  goal: BriefQuote | null;
  latest: BriefQuote | null;
  facts: { provider: string; cwd: string | null; branch: string | null; until: string | null; events: number };
  sections: { title: string; items: { field: string; text: string; cites: string[] }[] }[];
  cited: Record<string, CitePreview>;
}

export interface BriefQuote {
  text: string;
  turn: number;
  cites: string[];
}

export interface CitePreview {
  event_type: string;
  role: string | null;
  ordinal: number;
  timestamp: string | null;
  text: string;
}

export interface BriefAnswer {
  session_id: string;
  /** The fewest leading characters of `session_id` that name it: what the page shows (and cairn accepts). */
  session_short: string;
  at: string;
  step: number | null;
  budget_tokens: number;
  tokens: number;
  original_tokens: number;
  ratio: number;
  /** Markdown citing events as [e:ID]. */
  text: string;
  citations: { event_id: string; ordinal: number; event_type: string }[];
  validation: { coverage: number; missing: string[]; entity_overlap: number; ok: boolean };
  budget_note: string | null;
  /** The same brief for a person: the headline, sections with something in them, previews of what each cites. */
  view: BriefView;
}

export interface ThreadSessionView {
  session_id: string;
  /** The fewest leading characters of `session_id` that name it: what the page shows (and cairn accepts). */
  session_short: string;
  provider: string;
  kind: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  folded_into: string | null;
}

export interface ThreadView {
  thread_id: string;
  label: string;
  label_reason: string;
  started_at: string | null;
  updated_at: string | null;
  providers: string[];
  projects: string[];
  sessions: ThreadSessionView[];
  shared: { entity_id: string; kind: string; display: string; sessions: number }[];
  /** What the thread shares, in words; never empty. */
  shares: string;
}

export interface ThreadsAnswer {
  threads: ThreadView[];
  total: number;
}

export interface ThreadTimelineAnswer {
  thread: ThreadView;
  total_rows: number;
  window: { start_row: number; end_row: number };
  rows: ThreadRowView[];
  earlier: { start_row: number } | null;
  later: { start_row: number } | null;
}

/** A sentence of a model's answer with its citations' verdicts (`ask/check.ts`). */
export interface CheckedSentenceView {
  text: string;
  verdict: "supported" | "unsupported" | "uncited" | "no_claim";
  citations: { event_id: string; verdict: string; shared: string[] }[];
}

/** `POST /api/ask`: the checked answer. */
export interface AskAnswerView {
  question: string;
  model: string;
  answer: string;
  check: { sentences: CheckedSentenceView[]; claims: number; supported: number };
  cited: {
    event_id: string;
    timestamp: string | null;
    provider: string;
    event_type: string;
    status: string | null;
    line: string;
    in_pack: boolean;
  }[];
}

/** `POST /api/ask/resume`: the AI brief, or why the deterministic one stands. */
export interface AiResumeView {
  session_id: string;
  model: string;
  chosen: "ai" | "deterministic";
  text: string;
  ai_text: string;
  ai_tokens: number;
  brief_tokens: number;
  must_keep: number;
  check: { accepted: boolean; reasons: string[]; missing: string[] };
}
