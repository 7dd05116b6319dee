/** One OpenHands event, by its `kind`, as records. */

import { arr, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, unknownRecord } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";
import type { OpenHandsCall } from "./usage.ts";

export interface OpenHandsState extends LineState {
  sessionId: string;
  /** Whether the session record was given. */
  started: boolean;
  cwd: string | null;
  model: string | null;
  /** The conversation this one is a subagent of, by its folder's name. */
  parent: string | null;
  conversationId: string | null;
  /** The model calls the state file records, until they are handed on with the first event. */
  calls?: OpenHandsCall[];
}

interface At {
  line: number;
  ts: string | null;
}

/** Events that say nothing a transcript keeps: the system prompt and tool list, state changes, streamed deltas. */
const SILENT = new Set([
  "SystemPromptEvent",
  "ConversationStateUpdateEvent",
  "CondensationRequest",
  // Made from a `Condensation`'s summary when the model is sent the view; the condensation is the record.
  "CondensationSummaryEvent",
  "TokenEvent",
  "StreamingDeltaEvent",
  "LLMCompletionLogEvent",
]);

export function readEvent(s: OpenHandsState, o: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const kind = str(o["kind"]) ?? "";
  const key = str(o["id"]) ?? `line${line.line}`;
  const at: At = { line: line.line, ts };
  switch (kind) {
    case "MessageEvent":
      return message(o, key, at, sink);
    case "ActionEvent":
      return action(o, key, at, sink);
    case "ObservationEvent":
      return observation(o, key, at, sink);
    case "AgentErrorEvent":
      return failure(o, key, at, str(o["error"]) ?? "", { agent_error: true }, sink);
    case "UserRejectObservation": {
      const reason = str(o["rejection_reason"]) ?? "rejected";
      const by = str(o["rejection_source"]) ?? "user";
      return failure(o, key, at, `Action rejected: ${reason}`, { rejected_by: by }, sink);
    }
    case "Condensation": {
      const forgotten = arr(o["forgotten_event_ids"])?.length ?? 0;
      const text = str(o["summary"]) ?? `${forgotten} earlier events forgotten`;
      sink.out.push({ kind: "resume_point", ...at, key, pointKind: "compaction", text, meta: { forgotten } });
      return;
    }
    case "ConversationErrorEvent": {
      const text = [str(o["code"]), str(o["detail"])].filter(Boolean).join(": ");
      sink.out.push({ kind: "notice", ...at, key, level: "error", text });
      return;
    }
    case "PauseEvent":
      sink.out.push({ kind: "notice", ...at, key, level: "info", text: "paused" });
      return;
    case "HookExecutionEvent":
      return hook(o, key, at, sink);
    default:
      if (!SILENT.has(kind)) unknownRecord(s, kind, o, line, ts, sink);
  }
}

function message(o: Obj, key: string, at: At, sink: LineSink): void {
  const m = obj(o["llm_message"]) ?? {};
  const text = textOf(m["content"]);
  const source = str(o["source"]);
  if (source === "user") {
    // A subagent's task names the agent that sent it: the request its session works on, as a prompt is.
    const sender = str(o["sender"]);
    sink.out.push({
      kind: "message",
      ...at,
      key,
      role: "user",
      text,
      typed: true,
      ...(sender ? { meta: { sender } } : {}),
    });
  } else if (source === "agent") sink.out.push({ kind: "message", ...at, key, role: "assistant", text, typed: false });
  else sink.out.push({ kind: "message", ...at, key, role: "system", text, typed: false });
  // What the harness added to a prompt (a skill it activated): context, not the person's words.
  const extra = textOf(o["extended_content"]);
  if (extra.trim() !== "")
    sink.out.push({ kind: "message", ...at, key: `${key}#context`, role: "system", text: extra, typed: false });
}

function action(o: Obj, key: string, at: At, sink: LineSink): void {
  const thought = textOf(o["thought"]);
  const messageKey = thought.trim() !== "" ? `${key}#thought` : null;
  if (messageKey)
    sink.out.push({ kind: "message", ...at, key: messageKey, role: "assistant", text: thought, typed: false });
  const call = obj(o["tool_call"]) ?? {};
  const callId = str(o["tool_call_id"]) ?? str(call["id"]) ?? key;
  sink.out.push({
    kind: "tool_call",
    ...at,
    key,
    callId,
    name: str(o["tool_name"]) ?? str(call["name"]) ?? "unknown",
    input: inputOf(obj(o["action"]), call),
    messageKey,
  });
}

/** The parsed action without its class name; the model's arguments as written when the action did not parse. */
function inputOf(act: Obj | undefined, call: Obj): unknown {
  if (act) {
    const { kind: _, ...input } = act;
    return input;
  }
  const raw = str(call["arguments"]);
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function observation(o: Obj, key: string, at: At, sink: LineSink): void {
  const ob = obj(o["observation"]) ?? {};
  const code = ob["exit_code"];
  // -1: the command reached the soft timeout and is still running; it has not ended, well or badly.
  const running = code === -1;
  sink.out.push({
    kind: "tool_result",
    ...at,
    key,
    callId: str(o["tool_call_id"]) ?? key,
    output: withoutHeader(ob, textOf(ob["content"])),
    isError: ob["is_error"] === true ? true : running ? null : ob["is_error"] === false ? false : null,
    exitCode: typeof code === "number" && !running ? code : null,
    ...(running ? { meta: { still_running: true } } : {}),
  });
}

/**
 * A file the editor viewed, without the line the editor puts before it ("Here's the result of running `cat -n` on
 * <path>:"): the result is the file (its gutter of line numbers is the topology's to read).
 */
function withoutHeader(ob: Obj, output: string): string {
  const path = str(ob["path"]);
  if (ob["command"] !== "view" || path === undefined) return output;
  const header = `Here's the result of running \`cat -n\` on ${path}:\n`;
  return output.startsWith(header) ? output.slice(header.length) : output;
}

function failure(o: Obj, key: string, at: At, output: string, meta: Obj, sink: LineSink): void {
  const callId = str(o["tool_call_id"]) ?? key;
  sink.out.push({ kind: "tool_result", ...at, key, callId, output, isError: true, exitCode: null, meta });
}

function hook(o: Obj, key: string, at: At, sink: LineSink): void {
  const name = str(o["hook_event_type"]) ?? "hook";
  const blocked = o["blocked"] === true;
  const failed = o["success"] === false;
  const said = str(o["error"]) ?? str(o["reason"]) ?? "";
  const text = `${name} hook${blocked ? " blocked" : failed ? " failed" : " ran"}${said ? `: ${said}` : ""}`;
  sink.out.push({ kind: "notice", ...at, key, level: blocked || failed ? "warning" : "info", text });
}

/** The text blocks of a content list (`{type: "text", text}`), an image as a placeholder. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const b of arr(content) ?? []) {
    if (!isObj(b)) continue;
    const text = str(b["text"]);
    if (text !== undefined) parts.push(text);
    else if (b["type"] === "image") parts.push("[image]");
  }
  return parts.join("\n");
}
