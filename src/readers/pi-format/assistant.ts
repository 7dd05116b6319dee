/**
 * The `assistant` message role: the reply's text, its thinking (kept as meta), its tool calls (records of their own
 * hung off the message) and how the turn stopped; a failed turn is also an error of its own.
 */
import { arr, type Obj, obj, str } from "../json.ts";
import type { RawRecord, ToolCallRecord, UsageRecord } from "../types.ts";
import { count, usageRecord } from "../usage.ts";
import type { EntryAt, PiState } from "./state.ts";

export function readAssistant(s: PiState, m: Obj, at: EntryAt, out: RawRecord[]): void {
  const { line, ts, key } = at;
  const { texts, thinking, calls } = readBlocks(m, at);
  const stop = str(m["stopReason"]);
  const error = str(m["errorMessage"]);
  const model = str(m["model"]);
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    parentKey: at.parentKey,
    role: "assistant",
    text: texts.join("\n\n"),
    typed: false,
    meta: replyMeta(m, thinking),
  });
  if (stop === "error") {
    // A failed turn is also an error of its own, hung off the message (and placed right after it).
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: `${key}#stop`,
      aboutKey: key,
      level: "error",
      text: error ?? "assistant turn failed",
      meta: { stop_reason: stop },
    });
  }
  out.push(...calls);
  const usage = callUsage(m, at, model);
  if (usage) out.push(usage);
  if (model && model !== s.seenModel && s.sessionId) {
    s.seenModel = model;
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, model });
  }
}

/**
 * The reply's tokens and the cost pi priced it at. A fork's file repeats its parent's entries as they were, so a call
 * is named by its time, model and counts, and a copy counts once.
 */
function callUsage(m: Obj, at: EntryAt, model: string | undefined): UsageRecord | null {
  const usage = obj(m["usage"]);
  if (!usage) return null;
  const t = {
    input: count(usage["input"]),
    output: count(usage["output"]),
    cacheRead: count(usage["cacheRead"]),
    cacheWrite: count(usage["cacheWrite"]),
  };
  const cost = obj(usage["cost"])?.["total"];
  return usageRecord(
    { line: at.line.line, ts: at.ts, key: `${at.key}#u` },
    {
      ...t,
      call: `${at.ts ?? ""}|${model ?? ""}|${t.input}|${t.output}|${t.cacheRead}|${t.cacheWrite}`,
      model: model ?? null,
      cost: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    },
  );
}

function readBlocks(m: Obj, at: EntryAt): { texts: string[]; thinking: string[]; calls: ToolCallRecord[] } {
  const texts: string[] = [];
  const thinking: string[] = [];
  const calls: ToolCallRecord[] = [];
  for (const b of arr(m["content"]) ?? []) {
    const block = obj(b);
    if (!block) continue;
    const type = str(block["type"]);
    if (type === "text") texts.push(str(block["text"]) ?? "");
    else if (type === "thinking") thinking.push(str(block["thinking"]) ?? "");
    else if (type === "toolCall") {
      const callId = str(block["id"]) ?? `${at.key}#${calls.length}`;
      calls.push({
        kind: "tool_call",
        line: at.line.line,
        ts: at.ts,
        key: `${at.key}/${callId}`,
        callId,
        name: str(block["name"]) ?? "unknown",
        input: block["arguments"] ?? {},
        messageKey: at.key,
      });
    }
  }
  return { texts, thinking, calls };
}

function replyMeta(m: Obj, thinking: string[]): Record<string, unknown> {
  const model = str(m["model"]);
  const stop = str(m["stopReason"]);
  const error = str(m["errorMessage"]);
  const meta: Record<string, unknown> = {};
  if (model) meta["model"] = model;
  if (stop) meta["stop_reason"] = stop;
  // An aborted or failed turn says why in `errorMessage`; it belongs to the message (the topology marks its status).
  if ((stop === "error" || stop === "aborted") && error) meta["error_message"] = error;
  if (thinking.length > 0) meta["thinking"] = thinking.join("\n\n");
  const usage = obj(m["usage"]);
  if (usage) meta["usage"] = usage;
  return meta;
}
