/**
 * `response_item`: what the model saw and said, item by item (messages, reasoning, tool calls and their outputs,
 * compactions). The same items come bare in the early Rust layout and in the TypeScript-era `.json` document.
 */
import { type Obj, str } from "../json.ts";
import { type LineSink, unknownRecord } from "../line-loop.ts";
import type { RawRecord } from "../types.ts";
import { readCompacted } from "./compaction.ts";
import { readMessageItem, readReasoning } from "./messages.ts";
import type { CodexState, ItemAt } from "./state.ts";
import { readToolCall, readToolOutput } from "./tool-calls.ts";

/** Items known to carry nothing cairn reads: searches for tools, snapshots, generated images, tool lists. */
const QUIET_RESPONSE_ITEMS = new Set([
  "tool_search_call",
  "tool_search_output",
  "ghost_snapshot",
  "image_generation_call",
  "additional_tools",
  "agent_message",
  "other",
]);

export function readResponseItem(s: CodexState, p: Obj, at: ItemAt, out: RawRecord[], sink: LineSink): void {
  const type = str(p["type"]);
  switch (type) {
    case "message":
      return readMessageItem(s, p, at, out, sink.problems);
    case "reasoning":
      return readReasoning(p, at, out);
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call":
    case "web_search_call":
      return readToolCall(type, p, at, out);
    case "function_call_output":
    case "custom_tool_call_output":
    case "local_shell_call_output":
      return readToolOutput(s, p, at, out);
    case "compaction":
      return readCompacted(s, { message: "" }, at.line, at.ts, out);
    default:
      if (type !== undefined && QUIET_RESPONSE_ITEMS.has(type)) return;
      unknownRecord(s, `response_item/${type ?? ""}`, p, at.line, at.ts, sink);
  }
}
