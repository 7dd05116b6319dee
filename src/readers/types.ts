/**
 * The provider-neutral record stream that every reader produces. Readers know file formats; they do not decide
 * what an event, an edge or an entity is (that is `topology/`).
 */
import type { Meta, Provider, SessionKind } from "./vocabulary.ts";

export interface RecordBase {
  /** 1-based line in the source file. */
  line: number;
  /** ISO-8601 time of the record, when the format has one. */
  ts: string | null;
  /**
   * Stable identity of the record within its session: Claude line `uuid`, pi entry `id`, Codex `call_id` or line
   * number. Event ids are derived from it, never from insertion order.
   */
  key: string;
  /** The provider's own tree parent (Claude `parentUuid`, pi `parentId`). */
  parentKey?: string | null;
  /**
   * Set when this record re-states an earlier record with the same key (a Claude API message written over several
   * lines, a compaction summary arriving after its boundary). The event keeps its first ordinal.
   */
  update?: boolean;
  meta?: Meta;
}

/**
 * Session identity and metadata. Later records merge into earlier ones (fields left undefined do not override).
 * `meta.continues` names the session whose conversation this one carries on (Factory Droid writes a compaction's
 * rest into a child session): a brief of it reads that session's events first (resume/timeline.ts).
 */
export interface SessionRecord extends RecordBase {
  kind: "session";
  sessionId: string;
  sessionKind?: SessionKind;
  cwd?: string | null;
  title?: string | null;
  model?: string | null;
  gitBranch?: string | null;
  parentSessionId?: string | null;
  startedAt?: string | null;
}

export const MESSAGE_ROLES = ["user", "assistant", "system", "developer"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface MessageRecord extends RecordBase {
  kind: "message";
  role: MessageRole;
  text: string;
  /**
   * True for words a person typed (prompts, mid-turn steering). False for injected context, hook output, slash
   * command echoes and other harness text that arrives in a user-role envelope.
   */
  typed: boolean;
}

export interface ToolCallRecord extends RecordBase {
  kind: "tool_call";
  callId: string;
  name: string;
  input: unknown;
  /** Key of the assistant message that issued the call, when the format links them. */
  messageKey?: string | null;
}

export interface ToolResultRecord extends RecordBase {
  kind: "tool_result";
  callId: string;
  output: string;
  /** The format's own failure flag; null when the format has none. */
  isError: boolean | null;
  exitCode: number | null;
}

export const RESUME_POINT_KINDS = [
  "compaction",
  "branch_summary",
  "handoff",
  "checkpoint",
  "label",
  "sequence_step",
] as const;
export type ResumePointKind = (typeof RESUME_POINT_KINDS)[number];

export interface ResumePointRecord extends RecordBase {
  kind: "resume_point";
  pointKind: ResumePointKind;
  text: string;
}

/** Harness-level notices: API errors, hook failures, aborted turns. `error` notices become error events. */
export interface NoticeRecord extends RecordBase {
  kind: "notice";
  level: "error" | "warning" | "info";
  text: string;
  /**
   * Key of the record the notice is about (the assistant turn that ended in an API error), when the format says;
   * the notice then hangs off that record instead of sitting in the tree on its own.
   */
  aboutKey?: string;
}

/**
 * What one model call cost in tokens, as the agent recorded it (never counted by cairn). `input` is the input that
 * was neither read from nor written to the cache; `output` includes `reasoning`, which is shown for information.
 */
export interface CallTokens {
  /**
   * The call's identity across every copy the agent wrote of it (a Claude message repeated in a resumed session's
   * file, a Codex fork replaying its parent's history): copies count once, the largest kept. Null when the format
   * gives none: every record counts.
   */
  call: string | null;
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  /** Written to the cache for the default time (Claude's 5 minutes), or for a time the agent does not say. */
  cacheWrite: number;
  /** Written to the cache for an hour (Claude), priced at twice the input. */
  cacheWrite1h: number;
  reasoning: number;
  /** The cost in US dollars the agent itself recorded for the call (pi), or null. */
  cost: number | null;
  /**
   * A copy of a call another conversation made (a Claude subagent's sidechain, a Codex fork's replay of its parent's
   * records): the original's copy counts before it.
   */
  sidechain?: boolean;
  /** Served in a faster, dearer mode (Claude's `speed: "fast"`). */
  fast?: boolean;
}

/** Token usage of one model call (see `CallTokens`): not an event; it goes to the usage report. */
export interface UsageRecord extends RecordBase {
  kind: "usage";
  tokens: CallTokens;
}

export type RawRecord =
  | SessionRecord
  | MessageRecord
  | ToolCallRecord
  | ToolResultRecord
  | ResumePointRecord
  | NoticeRecord
  | UsageRecord;

export interface LineProblem {
  line: number;
  reason: string;
  excerpt: string;
}

export interface ParseOutput<S> {
  records: RawRecord[];
  problems: LineProblem[];
  state: S;
}

/** One line of input: its text (without the newline) and its 1-based number. */
export interface SourceLine {
  text: string;
  line: number;
}

/**
 * A transcript format. `parse` is pure and resumable: parsing lines [1..k] and then [k+1..n] with the state
 * returned by the first call yields exactly the records of parsing [1..n] at once. States are plain JSON.
 */
export interface Reader<S = unknown> {
  provider: Provider;
  /** Names the reader when one provider has several formats (Qwen Code's older Gemini-style chats). */
  id?: string;
  /**
   * The version of this reader's state and of what it makes of a file. A file indexed by another version is read
   * again from its start, so a newer reader never resumes from a state it does not understand.
   */
  version: number;
  /**
   * Its records carry keys other formats' headers carry too (Claude Code's `sessionId`, which Gemini CLI's header
   * names): detection tries it after every other format.
   */
  general?: boolean;
  /** Only its folder tells this format apart from another's (a fork writing its parent's files): tried first, by path. */
  byFolder?: boolean;
  /**
   * Whether the file at `path` is one JSON document rewritten in place as it grows (Gemini CLI's older chats): it
   * is read whole, as one line, every time it changes, instead of from where the last read stopped.
   */
  wholeFile?(path: string): boolean;
  /**
   * A format kept in an SQLite database instead of lines (OpenCode): the rows of `query`, in its order, each as one
   * JSON object, are the lines `parse` gets, read whole every time the database changes. A database is this
   * format's when it has every table in `tables` (and, for a fork, the tables that only the fork has).
   */
  database?: { tables: readonly string[]; query: string };
  /**
   * A format kept as one JSON file per event in a folder (OpenHands' `events/event-00007-<id>.json`): the folder that
   * holds the events of the transcript at `path`, a file that stands for the whole (the conversation's state file),
   * or null. The folder's `.json` files in name order (see `eventFiles`), each file one line numbered from 1, are the
   * lines `parse` gets, read whole every time `path` or one of them changes. Files named like events are read
   * through this folder only, never as transcripts of their own.
   */
  eventFolder?(path: string): string | null;
  /** Whether a file looks like this format, from its path and first line. */
  detect(path: string, firstLine: string): boolean;
  /**
   * Small files beside a transcript that say what its records do not (Gemini CLI's `.project_root`, naming the
   * folder a chat was for): the indexer reads those that exist and hands `initialState` their text by path. Which
   * files may depend on what earlier ones say (a pointer naming the snapshot to read, a manifest naming its parts):
   * it is asked again with the texts read so far (`read`) until it names no file it has not been given.
   */
  context?(path: string, read: Readonly<Record<string, string>>): string[];
  /**
   * Context files handed over as their bytes, one character per byte (latin1), not decoded as UTF-8: for a big
   * file in which the reader only looks for a few ASCII markers and decodes what it keeps itself.
   */
  contextAsBytes?(file: string): boolean;
  initialState(path: string, context?: Readonly<Record<string, string>>): S;
  parse(lines: Iterable<SourceLine>, state: S): ParseOutput<S>;
}
