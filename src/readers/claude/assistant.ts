/**
 * `assistant` lines. Claude Code writes one API message over several lines (a text block, a thinking block, each
 * tool call), each line repeating the message's id and usage: the lines are merged into one message record, updated
 * as they come, and every tool call is a record of its own hung off that message.
 */
import { arr, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine, ToolCallRecord } from "../types.ts";
import { sessionUpdate } from "./session.ts";
import type { ClaudeMessage, ClaudeState } from "./state.ts";
import { lineMeta } from "./subagent.ts";
import { lineKey, parentOf } from "./tree.ts";
import { readUsage } from "./usage.ts";

export function readAssistant(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const uuid = lineKey(o, line);
  const message = obj(o["message"]) ?? {};
  const msgId = str(message["id"]) ?? uuid;
  const base = lineMeta(o);
  const continuing = takeMessage(s, msgId, uuid);
  const m = s.msg!;
  const calls: ToolCallRecord[] = [];
  let changed = addBlocks(m, contentBlocks(message), (block) =>
    calls.push({
      kind: "tool_call",
      line: line.line,
      ts,
      key: "",
      callId: str(block["id"]) ?? `${uuid}#${calls.length}`,
      name: str(block["name"]) ?? "unknown",
      input: block["input"] ?? {},
      messageKey: m.key,
      meta: base,
    }),
  );
  changed = !continuing || changed;
  const usage = obj(message["usage"]);
  if (usage && m.usage === null) {
    m.usage = usage;
    changed = true;
  }
  const meta = messageMeta(m, message, o, base, msgId);
  readUsage(s, m, o, line, ts, out);
  if (changed) {
    out.push({
      kind: "message",
      line: line.line,
      ts,
      key: m.key,
      parentKey: continuing ? undefined : parentOf(s, o),
      role: "assistant",
      text: m.text,
      typed: false,
      update: continuing,
      meta,
    });
  }
  if (o["isApiErrorMessage"] === true && m.text) {
    // The API error is the message's text; the error event hangs off the message.
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: `${uuid}#err`,
      aboutKey: m.key,
      level: "error",
      text: m.text,
      meta: { api_error: true },
    });
  }
  // The line's uuid names its first tool call when it has one, otherwise the merged message.
  calls.forEach((c, i) => {
    c.key = i === 0 && continuing ? uuid : `${uuid}#c${i}`;
    out.push(c);
  });
  if (calls.length === 0 || !continuing) {
    if (uuid !== m.key) s.alias[uuid] = m.key;
  }
}

/**
 * Makes the line's API message the current one: the message being written, one that an interleaved line set aside
 * (kept in `recent`), or a new one. True when the message was already begun on an earlier line.
 */
function takeMessage(s: ClaudeState, msgId: string, uuid: string): boolean {
  if (s.msg !== null && s.msg.id === msgId) return true;
  const earlier = s.recent.find((r) => r.id === msgId) ?? null;
  if (s.msg) s.recent = [...s.recent.filter((r) => r.id !== msgId), s.msg].slice(-8);
  else s.recent = s.recent.filter((r) => r.id !== msgId);
  s.msg = earlier ?? { id: msgId, key: uuid, text: "", thinking: "", usage: null };
  return earlier !== null;
}

function contentBlocks(message: Obj): unknown[] {
  return (
    arr(message["content"]) ??
    (typeof message["content"] === "string" ? [{ type: "text", text: message["content"] }] : [])
  );
}

/** Adds the line's text and thinking to the message and hands each tool call on; true when the message grew. */
function addBlocks(m: ClaudeMessage, blocks: unknown[], onCall: (block: Obj) => void): boolean {
  let changed = false;
  for (const b of blocks) {
    const block = obj(b);
    if (!block) continue;
    const btype = str(block["type"]);
    if (btype === "text") {
      const text = str(block["text"]) ?? "";
      if (text !== "") {
        m.text = m.text === "" ? text : `${m.text}\n\n${text}`;
        changed = true;
      }
    } else if (btype === "thinking" || btype === "redacted_thinking") {
      const thinking = str(block["thinking"]) ?? "";
      if (thinking !== "") {
        m.thinking = m.thinking === "" ? thinking : `${m.thinking}\n\n${thinking}`;
        changed = true;
      }
    } else if (btype === "tool_use" || btype === "server_tool_use") onCall(block);
  }
  return changed;
}

function messageMeta(
  m: ClaudeMessage,
  message: Obj,
  o: Obj,
  base: Record<string, unknown> | undefined,
  msgId: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...base, message_id: msgId };
  if (m.thinking !== "") meta["thinking"] = m.thinking;
  const model = str(message["model"]);
  if (model) meta["model"] = model;
  const stop = str(message["stop_reason"]);
  if (stop) meta["stop_reason"] = stop;
  if (m.usage !== null) meta["usage"] = m.usage;
  if (o["isApiErrorMessage"] === true) meta["api_error"] = true;
  return meta;
}
