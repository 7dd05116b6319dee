/** The hand-judged query set (`queries.json`) and the transcripts it was judged on. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realFixturesDir } from "../corpus.ts";

export type Grade = 1 | 2;

/**
 * lexical: shares words with its answer; paraphrase: other words; decision: "what did we decide about X";
 * end-state: "did X work in the end"; still-failing: "what was still failing at the end".
 */
export const QUERY_KINDS = ["lexical", "paraphrase", "decision", "end-state", "still-failing"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface JudgedQuery {
  id: string;
  query: string;
  type: QueryKind;
  relevant: Record<string, Grade>;
  note: string;
}

/** The transcripts with real text (the localpush and agent-history fixtures are redacted). */
export const USABLE_FIXTURES = [
  "claude/episodic-memory__large-conversation.jsonl",
  "claude/codemie__session-624a4a58.jsonl",
  "claude/codemie-incremental-subagents",
  "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
  "pi/pi-mono__large-session.jsonl",
];

/** The judged queries, read from `queries.json` beside this file. */
export function loadJudged(): JudgedQuery[] {
  return JSON.parse(readFileSync(new URL("./queries.json", import.meta.url), "utf8")) as JudgedQuery[];
}

/** Absolute paths of the usable fixtures. */
export function usableFixturePaths(): string[] {
  return USABLE_FIXTURES.map((f) => join(realFixturesDir(), f));
}
