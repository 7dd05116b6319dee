/**
 * Gemini CLI chats: `~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl` (0.6x) — a header record
 * (`sessionId`, `projectHash`, `kind`), message records keyed by `id` (a later record with the same id re-states
 * it), `{"$set": …}` patches (a `messages` patch replaces the whole history: on resume, and after a compression,
 * whose summary sits in the user's slot followed by the CLI's fixed acknowledgement) and `{"$rewindTo": id}`;
 * a subagent's chat in `chats/<parent session>/<id>.jsonl`. Older versions wrote one `session-*.json` document
 * per chat, rewritten as it grew. Qwen Code's older releases share the layout under `~/.qwen/tmp`.
 */
import { basename, dirname } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, contentText, isObj, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import { shellReport } from "../shell-report.ts";
import type { Reader, SourceLine } from "../types.ts";
import { usageRecord } from "../usage.ts";
import type { Provider } from "../vocabulary.ts";
import { projectContext, projectFolder } from "./project.ts";
import { geminiTokens } from "./usage.ts";

export interface GeminiState extends LineState {
  /** Whether the file is one JSON document (pre-JSONL versions), and its text until it parses. */
  document: { text: string; firstLine: number } | null;
  isDocument: boolean;
  /** The chat folder's name when the file sits in `chats/<parent>/`: the parent session of a subagent. */
  parentFromPath: string | null;
  fileStem: string;
  /** Message ids already read, and tool call ids already emitted (newest last, bounded). */
  messages: string[];
  calls: string[];
  /** Text of each assistant message so far, by id, so a re-stated record emits only when it changed. */
  replies: Record<string, string>;
  /** Compression summaries already taken (by message id). */
  summaries: string[];
  title: string | null;
  /** The project folder the CLI's files beside the chats name (`project.ts`), for chats whose header has none. */
  projectRoot?: string | null;
}

/** What Gemini CLI answers, in the model's slot, after the summary a compression puts in the user's. */
const COMPRESSION_ACK = "Got it. Thanks for the additional context!";
/** Context the CLI sends as the first user message of every chat. */
const INJECTED = /^\s*<(session_context|system-reminder|hook_context)>/;
/** A session-start hook's context, which `gemini -p` puts before the prompt in the prompt's own message. */
const HOOK_PREFIX = /^\s*<hook_context>[\s\S]*?<\/hook_context>\s*/;
const KEEP = 4000;

/** `pathOnly`: a fork writing the same format elsewhere is told apart by its folder, never by content. */
export function geminiReader(provider: Provider, folder: RegExp, id?: string): Reader<GeminiState> {
  return {
    provider,
    ...(id ? { id } : {}),
    version: 4,
    wholeFile: (path) => path.endsWith(".json"),
    context: projectContext,
    detect(path, firstLine) {
      if (folder.test(path) && /[\\/]chats[\\/]/.test(path)) return true;
      if (path !== "" || id !== undefined) return false;
      // The chat's header: its session and its project's hash (Qwen Code's records add a `uuid`).
      const o = recordOf(firstLine);
      if (o) return typeof o["sessionId"] === "string" && typeof o["projectHash"] === "string" && !("uuid" in o);
      return /"projectHash"\s*:/.test(firstLine) && /"sessionId"\s*:/.test(firstLine) && !/"uuid"\s*:/.test(firstLine);
    },
    initialState(path, context = {}) {
      const parent = basename(dirname(path));
      return {
        sessionId: null,
        unknown: {},
        document: null,
        isDocument: path.endsWith(".json"),
        parentFromPath: parent !== "chats" && basename(dirname(dirname(path))) === "chats" ? parent : null,
        fileStem: basename(path).replace(/\.jsonl?$/, ""),
        messages: [],
        calls: [],
        replies: {},
        summaries: [],
        title: null,
        projectRoot: projectFolder(path, context),
      };
    },
    parse(lines, state) {
      return parseLines(lines, cloneJson(state), readLine, readDocumentLine);
    },
  };
}

/** A pre-JSONL chat is one JSON document, often pretty-printed: its lines wait until the document parses. */
function readDocumentLine(s: GeminiState, line: SourceLine, sink: LineSink): boolean {
  if (!s.isDocument) return false;
  const acc = s.document ?? { text: "", firstLine: line.line };
  acc.text = acc.text === "" ? line.text : `${acc.text}\n${line.text}`;
  s.document = acc;
  let doc: unknown;
  try {
    doc = JSON.parse(acc.text);
  } catch {
    return true;
  }
  s.document = null;
  const at: SourceLine = { text: acc.text.slice(0, 200), line: acc.firstLine };
  if (!isObj(doc) || !Array.isArray(doc["messages"])) {
    sink.problems.push(problem(at, "a Gemini chat document without messages"));
    return true;
  }
  header(s, doc, at, sink);
  for (const m of doc["messages"]) if (isObj(m)) message(s, m, at, sink);
  return true;
}

function readLine(s: GeminiState, o: Obj, line: SourceLine, sink: LineSink): void {
  if (isObj(o["$set"])) return patch(s, o["$set"], line, sink);
  if (typeof o["$rewindTo"] === "string") return;
  if (typeof o["id"] === "string" && typeof o["type"] === "string") return message(s, o, line, sink);
  if (typeof o["sessionId"] === "string") return header(s, o, line, sink);
  unknownRecord(s, str(o["type"]) ?? "", o, line, null, sink);
}

function header(s: GeminiState, o: Obj, line: SourceLine, sink: LineSink): void {
  const id = str(o["sessionId"]);
  if (!id) return;
  const ts = str(o["startTime"]) ?? null;
  const dirs = arr(o["directories"]);
  // A subagent's header lists its folders; a chat's own says only the project's hash.
  const cwd = typeof dirs?.[0] === "string" ? dirs[0] : (s.projectRoot ?? null);
  const subagent = str(o["kind"]) === "subagent";
  if (s.sessionId === null) {
    s.sessionId = id;
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: id,
      sessionKind: subagent ? "subagent" : "main",
      startedAt: ts,
      ...(cwd ? { cwd } : {}),
      ...(subagent && s.parentFromPath ? { parentSessionId: s.parentFromPath } : {}),
      meta: { project_hash: o["projectHash"] ?? null },
    });
  }
  // A resumed chat writes its header again; a summary (older documents) titles the chat.
  const summary = str(o["summary"]);
  if (summary && summary !== s.title) {
    s.title = summary;
    sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, title: summary });
  }
}

function remember(list: string[], id: string): boolean {
  if (list.includes(id)) return false;
  list.push(id);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
  return true;
}

function ensureSession(s: GeminiState, line: SourceLine, ts: string | null, sink: LineSink): string {
  if (s.sessionId === null) {
    s.sessionId = s.fileStem;
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      sessionKind: "main",
      ...(s.projectRoot ? { cwd: s.projectRoot } : {}),
      meta: { missing_header: true },
    });
  }
  return s.sessionId;
}

function textParts(content: unknown): string {
  if (typeof content === "string") return content;
  return (arr(content) ?? [])
    .map((p) => (isObj(p) && typeof p["text"] === "string" && p["thought"] !== true ? p["text"] : ""))
    .filter((t) => t !== "")
    .join("\n");
}

function userMessage(text: string, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const injected = INJECTED.test(text);
  sink.out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    role: injected ? "system" : "user",
    text,
    typed: !injected,
    ...(injected ? { meta: { injected: /<([a-z_-]+)>/.exec(text)?.[1] ?? "context" } } : {}),
  });
}

function message(s: GeminiState, m: Obj, line: SourceLine, sink: LineSink): void {
  const id = str(m["id"])!;
  const type = str(m["type"]);
  const ts = str(m["timestamp"]) ?? null;
  ensureSession(s, line, ts, sink);
  const first = remember(s.messages, id);
  switch (type) {
    case "user": {
      if (!first) return;
      const text = textParts(m["content"]);
      // A tool's answer travels in the user's slot as a functionResponse; the call's record carries it.
      if (text.trim() === "") return;
      // With `-p`, a session-start hook's context is put before the prompt in the same message.
      const hook = HOOK_PREFIX.exec(text);
      if (hook && hook[0].length < text.length) {
        userMessage(hook[0].trim(), `${id}#hook`, line, ts, sink);
        userMessage(text.slice(hook[0].length), id, line, ts, sink);
      } else userMessage(text, id, line, ts, sink);
      return;
    }
    case "gemini":
      return reply(s, m, id, line, ts, sink);
    case "info":
    case "warning":
    case "error": {
      if (!first) return;
      const text = contentText(m["content"]);
      if (text.trim() !== "")
        sink.out.push({ kind: "notice", line: line.line, ts, key: id, level: type, text, meta: { gemini_type: type } });
      return;
    }
    default:
      unknownRecord(s, `message/${type ?? ""}`, m, line, ts, sink);
  }
}

/** A model turn: its text (re-stated as it streams) and its tool calls, each with the result the CLI recorded. */
function reply(s: GeminiState, m: Obj, id: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const text = textParts(m["content"]);
  const thoughts = (arr(m["thoughts"]) ?? [])
    .map((t) => (isObj(t) ? [str(t["subject"]), str(t["description"])].filter(Boolean).join(": ") : ""))
    .filter((t) => t !== "")
    .join("\n\n");
  const before = s.replies[id];
  if (before === undefined || (text !== before && text !== "")) {
    const update = before !== undefined;
    s.replies[id] = text;
    const keys = Object.keys(s.replies);
    if (keys.length > 64) delete s.replies[keys[0]!];
    const meta: Obj = {};
    const model = str(m["model"]);
    if (model) meta["model"] = model;
    if (thoughts) meta["thinking"] = thoughts;
    if (isObj(m["tokens"])) meta["usage"] = m["tokens"];
    sink.out.push({
      kind: "message",
      line: line.line,
      ts,
      key: id,
      role: "assistant",
      text,
      typed: false,
      update,
      meta,
    });
  }
  const tokens = obj(m["tokens"]);
  if (tokens) {
    // The CLI writes a message again as it streams and a resumed or rewritten chat repeats it: its id names the call.
    const usage = usageRecord(
      { line: line.line, ts, key: `${id}#u` },
      { ...geminiTokens(tokens), call: id, model: str(m["model"]) ?? null },
    );
    if (usage) sink.out.push(usage);
  }
  for (const c of arr(m["toolCalls"]) ?? []) {
    const call = obj(c);
    const callId = str(call?.["id"]);
    if (!call || !callId || !remember(s.calls, callId)) continue;
    const callTs = str(call["timestamp"]) ?? ts;
    sink.out.push({
      kind: "tool_call",
      line: line.line,
      ts: callTs,
      key: `call:${callId}`,
      callId,
      name: str(call["name"]) ?? "unknown",
      input: call["args"] ?? {},
      messageKey: id,
    });
    const status = str(call["status"]);
    if (status === undefined || status === "scheduled" || status === "executing" || status === "validating") continue;
    const raw = resultText(call["result"]) || str(call["resultDisplay"]) || "";
    const report = shellReport(raw);
    const output = report ? report.output : raw;
    sink.out.push({
      kind: "tool_result",
      line: line.line,
      ts: callTs,
      key: `result:${callId}`,
      callId,
      output,
      isError: status === "error" || status === "cancelled",
      exitCode: report?.exitCode ?? null,
      meta: { status },
    });
  }
}

function resultText(result: unknown): string {
  const parts: string[] = [];
  for (const p of arr(result) ?? []) {
    const response = obj(obj(obj(p)?.["functionResponse"])?.["response"]);
    if (!response) continue;
    const out = response["output"] ?? response["error"] ?? response["llmContent"];
    parts.push(typeof out === "string" ? out : JSON.stringify(out ?? response));
  }
  return parts.join("\n");
}

/**
 * A patch of the chat's metadata. A `messages` patch re-states the history: it is what a resume loads (nothing
 * new) or what a compression left (the summary in the user's slot, then the CLI's acknowledgement).
 */
function patch(s: GeminiState, set: Obj, line: SourceLine, sink: LineSink): void {
  const messages = arr(set["messages"]);
  if (messages) {
    messages.forEach((raw, i) => {
      const m = obj(raw);
      const next = obj(messages[i + 1]);
      const id = str(m?.["id"]);
      if (!m || !id || str(m["type"]) !== "user" || !next) return;
      if (textParts(next["content"]) !== COMPRESSION_ACK || s.summaries.includes(id)) return;
      s.summaries.push(id);
      if (s.summaries.length > 64) s.summaries.shift();
      ensureSession(s, line, str(m["timestamp"]) ?? null, sink);
      sink.out.push({
        kind: "resume_point",
        line: line.line,
        ts: str(m["timestamp"]) ?? null,
        key: `compression:${id}`,
        pointKind: "compaction",
        text: textParts(m["content"]),
      });
    });
  }
  const summary = str(set["summary"]);
  if (summary && s.sessionId !== null && summary !== s.title) {
    s.title = summary;
    sink.out.push({
      kind: "session",
      line: line.line,
      ts: null,
      key: "session",
      sessionId: s.sessionId,
      title: summary,
    });
  }
}
