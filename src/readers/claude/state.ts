/** What the Claude Code reader carries from one line to the next; plain JSON, so a read can resume from a saved state. */
import type { LineState } from "../line-loop.ts";

export interface ClaudeMessage {
  id: string;
  key: string;
  text: string;
  thinking: string;
  /** Usage of the API call: every line of a message repeats it, so it is taken from the first line only. */
  usage: unknown;
  /** All tokens of the usage last recorded for the call (claude/usage.ts): a line repeating it records nothing. */
  usageTotal?: number;
}

export interface ClaudeState extends LineState {
  /** cairn's id for the session in this file (subagent files get `<parent>:agent-<id>`). */
  subagent: { agentId: string | null; layout: "flat" | "nested" } | null;
  fileStem: string;
  /** For `<parent>/subagents/agent-x.jsonl`: the parent session id taken from the path. */
  parentFromPath: string | null;
  /**
   * `summary` lines (a conversation's title, pointing at its leaf by `leafUuid`, often in another session's file),
   * oldest first, at most 50. They are session metadata: `summary` (the latest) and `summaries`.
   */
  summaries: Array<{ summary: string; leaf_uuid: string | null }>;
  /**
   * The API message being written over several lines: one assistant_message event, merged by `message.id`. It is
   * kept across interleaved user lines (a prompt typed while the reply streams), which do not end it.
   */
  msg: ClaudeMessage | null;
  /** Earlier API messages that may still continue after another one interleaved (newest last, at most 8). */
  recent: ClaudeMessage[];
  /** Line uuids that produced no record of their own → the record key that stands for them in the tree. */
  alias: Record<string, string>;
  /** The last `compact_boundary` (key and metadata), whose summary arrives on a later user line. */
  compact: { key: string; meta: Record<string, unknown> } | null;
  /** A `<bash-input>` user command waiting for its `<bash-stdout>`. */
  pendingBash: string | null;
  /** A slash command the user ran, waiting for its `<local-command-stdout>`. */
  pendingSlash: string | null;
  /**
   * Prompts queued (`queue-operation` enqueue) and the key of the record they became, so the same words arriving
   * later as a user line (2.1.x writes every prompt both ways) are that record, not a second prompt.
   */
  queued: Array<{ text: string; key: string }>;
  /** Last session metadata sent, so a session record is emitted only when something changes. */
  seen: {
    cwd: string | null;
    branch: string | null;
    model: string | null;
    version: string | null;
    title: string | null;
  };
  warmupOnly: boolean | null;
}
