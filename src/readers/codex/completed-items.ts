/**
 * 0.16x `event_msg.item_completed`: what its UI shows, item by item. Most of it the response items state too; what
 * only the items say is exit codes, a compaction's mark and, when its twin is missing, a prompt.
 */
import { type Obj, str } from "../json.ts";
import { type LineSink, unknownRecord } from "../line-loop.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { compactionMark } from "./compaction.ts";
import { rememberExitCode } from "./exit-codes.ts";
import { isInjected } from "./injected.ts";
import type { CodexState } from "./state.ts";
import { flushPending, itemText } from "./twins.ts";

const QUIET_COMPLETED_ITEMS = new Set(["Reasoning", "Plan", "WebSearch", "McpToolCall", "TodoList", "ImageView"]);

export function readCompletedItem(
  s: CodexState,
  item: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
  sink: LineSink,
): void {
  const type = str(item["type"]) ?? "";
  const id = str(item["id"]);
  const key = `L${line.line}`;
  switch (type) {
    case "UserMessage": {
      // Its response_item twin did not come first (it always has so far): the item alone is the prompt.
      const text = itemText(item);
      if (text.trim() === "" || isInjected(text)) return;
      out.push({ kind: "message", line: line.line, ts, key, role: "user", text, typed: true });
      return;
    }
    case "AgentMessage": {
      const text = itemText(item);
      if (text.trim() === "") return;
      flushPending(s, out);
      s.pending = {
        kind: "assistant",
        envelope: true,
        record: { kind: "message", line: line.line, ts, key, role: "assistant", text, typed: false },
      };
      return;
    }
    case "CommandExecution": {
      const code = item["exit_code"];
      if (id && typeof code === "number") rememberExitCode(s, id, code);
      return;
    }
    case "FileChange": {
      const status = str(item["status"]);
      if (id && (status === "completed" || status === "failed"))
        rememberExitCode(s, id, status === "completed" ? 0 : 1);
      return;
    }
    case "ContextCompaction":
      return compactionMark(s, line, ts, key, out);
    default:
      if (QUIET_COMPLETED_ITEMS.has(type)) return;
      unknownRecord(s, `item_completed/${type}`, item, line, ts, sink);
  }
}
