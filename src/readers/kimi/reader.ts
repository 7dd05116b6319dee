/**
 * Kimi CLI: one event log per session, `<share>/sessions/<work folder hash>/<session>/wire.jsonl`, and one per
 * subagent in `<session>/subagents/<agent>/wire.jsonl`. The first line is a `metadata` header (`protocol_version`);
 * every other line is `{timestamp (Unix seconds), message: {type, payload}}`: `TurnBegin` (what was typed, in
 * `user_input`), `ContentPart` (the reply's text or thinking, merged per step), `ToolCall` (OpenAI-style, arguments
 * as a JSON string), `ToolResult` (`return_value`: `is_error`, `output`, `message`), `CompactionBegin`/`End` and
 * status and control events. The parent's log repeats a subagent's events as `SubagentEvent`s, which are read from
 * the subagent's own log instead. The log names no work folder: the folder hash is the MD5 of one of those
 * `<share>/kimi.json` lists, read beside it; a subagent's `meta.json` gives its type and task.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { contentText, isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";
import { asideRecord } from "./aside.ts";

export interface KimiState extends LineState {
  /** The session's id from its folder, and for a subagent its parent's and its own. */
  folderId: string;
  parentId: string | null;
  cwd: string | null;
  subagent: { type: string | null; description: string | null } | null;
  started: boolean;
  /** In a slash command's turn before the model's first step: what is said there is the CLI's own words. */
  slash: boolean;
  /** Thinking of the step so far, given to the reply or call that follows it. */
  thinking: string | null;
}

/** `<share>/sessions/<hash>/<session>/[subagents/<agent>/]wire.jsonl`. */
const WIRE_PATH = /^(.*)[\\/]sessions[\\/]([^\\/]+)[\\/]([^\\/]+)[\\/](?:subagents[\\/]([^\\/]+)[\\/])?wire\.jsonl$/;
const RECORD_TEXT =
  /^\s*\{\s*"timestamp"\s*:\s*[\d.]+\s*,\s*"message"\s*:\s*\{\s*"type"\s*:\s*"[A-Za-z]+"\s*,\s*"payload"\s*:/;
const THINKING_KEPT = 20_000;

/** Events that carry nothing a transcript keeps: progress, status, requests the UI answered, and the copies of a subagent's own log. */
const QUIET = new Set([
  "TurnEnd",
  "CompactionEnd",
  "MCPLoadingBegin",
  "MCPLoadingEnd",
  "MCPStatusSnapshot",
  "HookTriggered",
  "ToolCallPart",
  "ApprovalRequest",
  "ApprovalResponse",
  "ApprovalRequestResolved",
  "QuestionRequest",
  "QuestionResponse",
  "HookRequest",
  "HookResponse",
  "ToolCallRequest",
  "SubagentEvent",
]);

export const kimiReader: Reader<KimiState> = {
  provider: "kimi",
  version: 2,
  detect(path, firstLine) {
    if (path !== "") return WIRE_PATH.test(path);
    const o = recordOf(firstLine);
    if (!o) return RECORD_TEXT.test(firstLine);
    if (o["type"] === "metadata") return typeof o["protocol_version"] === "string" && !("timestamp" in o);
    const m = obj(o["message"]);
    return typeof o["timestamp"] === "number" && typeof m?.["type"] === "string" && isObj(m["payload"]);
  },
  context(path) {
    const m = WIRE_PATH.exec(path);
    if (!m?.[1]) return [];
    const own = m[4] ? [join(m[1], "sessions", m[2]!, m[3]!, "subagents", m[4], "meta.json")] : [];
    return [join(m[1], "kimi.json"), ...own];
  },
  initialState(path, context = {}) {
    const m = WIRE_PATH.exec(path);
    const session = m?.[3] ?? path.replace(/^.*[\\/]|\.jsonl$/g, "");
    const agent = m?.[4];
    const meta =
      agent && m[1] ? json(context[join(m[1], "sessions", m[2]!, session, "subagents", agent, "meta.json")]) : null;
    return {
      sessionId: null,
      unknown: {},
      folderId: agent ? `${session}:${agent}` : session,
      parentId: agent ? session : null,
      cwd: m?.[1] && m[2] ? workFolder(m[2], context[join(m[1], "kimi.json")]) : null,
      subagent: agent
        ? { type: str(meta?.["subagent_type"]) ?? null, description: str(meta?.["description"]) ?? null }
        : null,
      started: false,
      slash: false,
      thinking: null,
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: KimiState, o: Obj, line: SourceLine, sink: LineSink): void {
  const header = o["type"] === "metadata";
  if (s.sessionId === null) start(s, line, sink, header ? { protocol_version: o["protocol_version"] ?? null } : {});
  if (header) return;
  const m = obj(o["message"]);
  const ts = typeof o["timestamp"] === "number" ? new Date(o["timestamp"] * 1000).toISOString() : null;
  if (!m) return unknownRecord(s, "", o, line, ts, sink);
  if (!s.started && ts) {
    s.started = true;
    sink.out.push({ ...session(s, line, ts, {}), startedAt: ts });
  }
  const type = str(m["type"]) ?? "";
  const p = obj(m["payload"]) ?? {};
  const base = { line: line.line, ts, key: `L${line.line}` };
  switch (type) {
    case "TurnBegin":
    case "SteerInput": {
      s.thinking = null;
      const text = contentText(p["user_input"]);
      const slash = /^\/[\w-]+/.test(text.trim());
      if (type === "TurnBegin") s.slash = slash;
      // A slash command runs in the CLI (`/compact`); its words are not a request to the model.
      sink.out.push({
        kind: "message",
        ...base,
        role: "user",
        text,
        typed: !slash,
        ...(slash ? { meta: { slash_command: true } } : {}),
      });
      return;
    }
    case "StepBegin":
      s.slash = false;
      return;
    case "ContentPart":
      return content(s, p, base, sink);
    case "ToolCall":
      return call(s, p, base, sink);
    case "ToolResult":
      return result(p, base, sink);
    case "StatusUpdate":
      return status(p, base, sink);
    case "CompactionBegin":
      // The summary goes to the model's context file, not to this log.
      sink.out.push({ kind: "resume_point", ...base, pointKind: "compaction", text: "" });
      return;
    default: {
      const other = asideRecord(type, p, base);
      if (other) sink.out.push(other);
      else if (other === undefined && !QUIET.has(type)) unknownRecord(s, type, p, line, ts, sink);
    }
  }
}

/**
 * A status update after a model call carries that call's `token_usage`: `input_other` is the input neither read
 * from nor written to the cache, beside `input_cache_read` and `input_cache_creation`. The model's message id names
 * the call (the parent's log repeats a subagent's updates, which are not read from it). The log names no model.
 */
function status(p: Obj, base: { line: number; ts: string | null; key: string }, sink: LineSink): void {
  const u = obj(p["token_usage"]);
  if (!u) return;
  const rec = usageRecord(
    { ...base, key: `${base.key}#u` },
    {
      call: str(p["message_id"]) ?? null,
      model: null,
      input: count(u["input_other"]),
      output: count(u["output"]),
      cacheRead: count(u["input_cache_read"]),
      cacheWrite: count(u["input_cache_creation"]),
    },
  );
  if (rec) sink.out.push(rec);
}

function start(s: KimiState, line: SourceLine, sink: LineSink, meta: Obj): void {
  s.sessionId = s.folderId;
  const sub = s.subagent;
  sink.out.push({
    ...session(s, line, null, sub ? { ...meta, subagent_type: sub.type } : meta),
    sessionKind: sub ? "subagent" : "main",
    ...(s.parentId ? { parentSessionId: s.parentId } : {}),
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(sub?.description ? { title: sub.description } : {}),
  });
}

function session(s: KimiState, line: SourceLine, ts: string | null, meta: Obj) {
  return { kind: "session" as const, line: line.line, ts, key: "session", sessionId: s.sessionId!, meta };
}

function content(s: KimiState, p: Obj, base: { line: number; ts: string | null; key: string }, sink: LineSink): void {
  const type = str(p["type"]);
  if (type === "think") {
    const think = str(p["think"]) ?? "";
    s.thinking = `${s.thinking ? `${s.thinking}\n` : ""}${think}`.slice(0, THINKING_KEPT);
    return;
  }
  const text = type === "text" ? (str(p["text"]) ?? "") : contentText([p]);
  if (text.trim() === "") return;
  // "The context has been compacted.": a slash command's answer, not the model's.
  const role = s.slash ? "system" : "assistant";
  sink.out.push({ kind: "message", ...base, role, text, typed: false, meta: takeThinking(s) });
}

function call(s: KimiState, p: Obj, base: { line: number; ts: string | null; key: string }, sink: LineSink): void {
  const fn = obj(p["function"]) ?? {};
  const raw = fn["arguments"];
  let input: unknown = raw ?? {};
  if (typeof raw === "string")
    try {
      input = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch {
      input = raw; // cut short by the model: kept as it came
    }
  sink.out.push({
    kind: "tool_call",
    ...base,
    callId: str(p["id"]) ?? base.key,
    name: str(fn["name"]) ?? "unknown",
    input,
    meta: takeThinking(s),
  });
}

function result(p: Obj, base: { line: number; ts: string | null; key: string }, sink: LineSink): void {
  const rv = obj(p["return_value"]) ?? {};
  const output = contentText(rv["output"]);
  const message = str(rv["message"]) ?? "";
  const code = /exit code:? (-?\d+)/i.exec(message);
  sink.out.push({
    kind: "tool_result",
    ...base,
    callId: str(p["tool_call_id"]) ?? "",
    // The CLI's one-line verdict ("No replacements were made…") is all a result without output says.
    output: output === "" ? message : output,
    isError: typeof rv["is_error"] === "boolean" ? rv["is_error"] : null,
    exitCode: code ? Number(code[1]) : null,
    ...(output !== "" && message !== "" ? { meta: { message } } : {}),
  });
}

function takeThinking(s: KimiState): Obj {
  const thinking = s.thinking;
  s.thinking = null;
  return thinking ? { thinking } : {};
}

/** The work folder whose MD5 names the session's folder (`<kaos>_<md5>` off the local machine), from `kimi.json`. */
function workFolder(hash: string, registry: string | undefined): string | null {
  const dirs = json(registry)?.["work_dirs"];
  if (!Array.isArray(dirs)) return null;
  for (const d of dirs) {
    const path = str(obj(d)?.["path"]);
    if (!path) continue;
    const kaos = str(obj(d)?.["kaos"]) ?? "local";
    const md5 = createHash("md5").update(path, "utf8").digest("hex");
    if (hash === (kaos === "local" ? md5 : `${kaos}_${md5}`)) return path;
  }
  return null;
}

function json(text: string | undefined): Obj | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}
