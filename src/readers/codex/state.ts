/**
 * What the Codex reader carries from one line to the next (plain JSON, so a read can resume from a saved state), and
 * where the record being read is.
 */
import type { LineState } from "../line-loop.ts";
import type { MessageRecord, SourceLine, UsageRecord } from "../types.ts";

export interface CodexState extends LineState {
  /** TypeScript-era `.json` rollouts are one JSON document; its text is kept until it parses. */
  legacyJson: { text: string; firstLine: number } | null;
  isJsonFile: boolean;
  /**
   * The first of a pair of records that state one message twice: a prompt is written as a `response_item`
   * message and then as `event_msg.user_message` (0.16x: `event_msg.item_completed` with a UserMessage); a reply as
   * `event_msg.agent_message` (an AgentMessage item) and then a `response_item`. The pair is one message; the first
   * waits here for its twin. A reply with no twin waits too: when a `compacted` record follows it, it was the
   * compaction's summary, not a reply (`bare`).
   */
  pending: { kind: "user" | "assistant"; record: MessageRecord; envelope: boolean; bare?: boolean } | null;
  /** Exit codes reported by `exec_command_end` / `patch_apply_end` before the call's output arrived. */
  exitCodes: Record<string, number>;
  /** Line of the last compaction record, to merge `compacted` with `event_msg.context_compacted`. */
  lastCompact: { line: number; key: string; hasText: boolean } | null;
  seen: { cwd: string | null; model: string | null; title: string | null };
  /** Where the model calls' token counts stand (codex/usage.ts). */
  usage?: CodexUsageState;
}

/** Where a response item is and what it is called: its line, time and record key, and whether it had an envelope. */
export interface ItemAt {
  line: SourceLine;
  ts: string | null;
  key: string;
  envelope: boolean;
}

/**
 * Where the model calls' token counts stand (codex/usage.ts). A spawned subagent's first record waits until the next
 * shows whether it opened a burst of its parent's records.
 */
export interface CodexUsageState {
  /** The running total last seen (its total tokens), or null before the first. */
  total: number | null;
  /** Spawned subagents only: checking whether the rollout opens with its parent's records. */
  opening?: { second: string; held: UsageRecord | null; skipping: boolean } | "spawned" | "done";
  /** When the rollout started (epoch ms), from its meta. */
  startedMs?: number;
}
