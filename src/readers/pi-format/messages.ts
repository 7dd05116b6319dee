/**
 * `message` entries, by role: the system prompt, prompts, replies, tool results, the user's own shell commands,
 * extension messages and the summaries pi puts in the context.
 */
import { contentText, isoTime, type Obj, str } from "../json.ts";
import { type LineSink, unknownRecord } from "../line-loop.ts";
import { readAssistant } from "./assistant.ts";
import { readCustomRole } from "./custom.ts";
import { readSystemPrompt } from "./session.ts";
import type { EntryAt, PiState } from "./state.ts";
import { readSummaryMessage } from "./summaries.ts";
import { readBashExecution, readToolResult } from "./tool-results.ts";

export function readMessage(s: PiState, m: Obj, entry: EntryAt, sink: LineSink): void {
  const out = sink.out;
  const role = str(m["role"]);
  // The entry's time, else the message's own.
  const at: EntryAt = { ...entry, ts: entry.ts ?? isoTime(m["timestamp"]) };
  switch (role) {
    case "system":
      return readSystemPrompt(s, m, at.line, at.ts, out);
    case "user": {
      const text = contentText(m["content"]);
      out.push({
        kind: "message",
        line: at.line.line,
        ts: at.ts,
        key: at.key,
        parentKey: at.parentKey,
        role: "user",
        text,
        typed: text.trim() !== "",
      });
      return;
    }
    case "assistant":
      return readAssistant(s, m, at, out);
    case "toolResult":
      return readToolResult(m, at, out);
    case "bashExecution":
      return readBashExecution(m, at, out);
    case "custom":
    case "hookMessage":
      return readCustomRole(m, at, out);
    case "branchSummary":
    case "compactionSummary":
      return readSummaryMessage(m, at, out);
    default:
      unknownRecord(s, `message/${role ?? ""}`, m, at.line, at.ts, sink);
  }
}
