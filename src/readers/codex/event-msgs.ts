/**
 * `event_msg`: what the UI showed as it happened. Prompts and replies (twins of response items), exit codes the
 * outputs may lack, errors, interrupts, compaction marks and session names; the rest is progress, skipped.
 */
import { type Obj, obj, str } from "../json.ts";
import { type LineSink, unknownRecord } from "../line-loop.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { compactionMark } from "./compaction.ts";
import { readCompletedItem } from "./completed-items.ts";
import { rememberExitCode } from "./exit-codes.ts";
import { isInjected } from "./injected.ts";
import { QUIET_EVENTS } from "./record-types.ts";
import type { CodexState } from "./state.ts";
import { flushPending, phaseMeta } from "./twins.ts";
import { readTokenCount } from "./usage.ts";

export function readEvent(
  s: CodexState,
  p: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
  sink: LineSink,
): void {
  const type = str(p["type"]);
  const key = `L${line.line}`;
  switch (type) {
    case "item_completed":
      return readCompletedItem(s, obj(p["item"]) ?? {}, line, ts, out, sink);
    case "user_message":
      return userMessage(p, line, ts, out);
    case "agent_message":
      return agentMessage(s, p, line, ts, out);
    case "exec_command_end": {
      const callId = str(p["call_id"]);
      const code = p["exit_code"];
      if (callId && typeof code === "number") rememberExitCode(s, callId, code);
      return;
    }
    case "patch_apply_end": {
      const callId = str(p["call_id"]);
      if (callId && typeof p["success"] === "boolean") rememberExitCode(s, callId, p["success"] ? 0 : 1);
      return;
    }
    case "error":
    case "stream_error":
      out.push({
        kind: "notice",
        line: line.line,
        ts,
        key,
        level: type === "error" ? "error" : "warning",
        text: str(p["message"]) ?? JSON.stringify(p),
        meta: { codex_error_info: p["codex_error_info"] ?? null },
      });
      return;
    case "turn_aborted":
      out.push({
        kind: "notice",
        line: line.line,
        ts,
        key,
        level: "warning",
        text: `turn aborted: ${str(p["reason"]) ?? "unknown"}`,
        meta: { interrupt: true },
      });
      return;
    case "token_count":
      return readTokenCount(s, p, line, ts, out);
    case "context_compacted":
      return compactionMark(s, line, ts, key, out);
    case "thread_name_updated":
      return threadName(s, p, line, ts, out);
    default:
      if (type && QUIET_EVENTS.has(type)) return;
      unknownRecord(s, `event_msg/${type ?? ""}`, p, line, ts, sink);
  }
}

/** A prompt whose response item did not come first (pairing takes the twin before this is reached). */
function userMessage(p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const text = str(p["message"]) ?? "";
  if (text.trim() === "" || isInjected(text)) return;
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key: `L${line.line}`,
    role: "user",
    text,
    typed: true,
    meta: { source: "event_msg" },
  });
}

/** A reply as the UI showed it: it waits for its response-item twin, whose text wins. */
function agentMessage(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const text = str(p["message"]) ?? "";
  if (text.trim() === "") return;
  flushPending(s, out);
  s.pending = {
    kind: "assistant",
    envelope: true,
    record: {
      kind: "message",
      line: line.line,
      ts,
      key: `L${line.line}`,
      role: "assistant",
      text,
      typed: false,
      meta: { source: "event_msg", ...phaseMeta(p) },
    },
  };
}

function threadName(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const title = str(p["thread_name"]);
  if (title && s.sessionId) {
    s.seen.title = title;
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, title });
  }
}
