/**
 * Crush keeps a project's sessions in one SQLite database, `.crush/crush.db`: `sessions` rows (`parent_session_id`
 * for a subagent's, whose id is `<assistant message id>$$<tool call id>` of the call that ran it) and `messages`
 * rows (`role` user | assistant | tool | system, `parts` a JSON list of `{type, data}`: text, reasoning,
 * tool_call (its `input` a JSON string), tool_result (`is_error`), finish (why the turn ended), image_url, binary,
 * shell_command (a command the person ran with `!`); `is_summary_message` on the summary a compaction writes into
 * the same session). The query orders the rows session by session, each session's messages in the order they were
 * written, and the indexer hands them over as JSON lines. Sessions name no folder: the project is the one the
 * database's `.crush` folder is in.
 */
import { basename, dirname } from "node:path";
import { arr, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";

export interface CrushState extends LineState {
  /** The project the database is in (`<project>/.crush/crush.db`); null for a data folder named otherwise. */
  cwd: string | null;
  /** The key of the last record of this session: the next one's parent. */
  last: string | null;
  /** Whether the current session is a subagent's (its prompts are the model's words). */
  sub: boolean;
  /** The model the current session's last assistant message named. */
  model: string | null;
  /** Tool call id → the assistant message that made it (a subagent's session id names both). */
  calls: Record<string, string>;
}

const ROLES = new Set(["user", "assistant", "tool", "system"]);

/** Parts that carry nothing the conversation needs. */
const QUIET_PARTS = new Set(["reasoning"]);

/**
 * Sessions by creation, each followed by its messages in the order they were inserted (`rowid`: a turn's messages
 * can share a timestamp). Columns are named, not `*`, so a column a newer release adds changes nothing.
 */
const QUERY = `
SELECT 'session' AS row, s.id AS session_id, s.id AS id, s.created_at AS at, s.parent_session_id AS parent,
  s.title AS title, NULL AS role, NULL AS parts, NULL AS model, 0 AS summary,
  s.created_at AS o1, s.id AS o2, 0 AS o3
FROM sessions s
UNION ALL
SELECT 'message', m.session_id, m.id, m.created_at, NULL, NULL, m.role, m.parts, m.model, m.is_summary_message,
  s.created_at, s.id, m.rowid
FROM messages m JOIN sessions s ON s.id = m.session_id
ORDER BY o1, o2, o3`;

export const crushReader: Reader<CrushState> = {
  provider: "crush",
  version: 1,
  database: { tables: ["sessions", "messages", "files"], query: QUERY },
  // Databases are told apart by their tables; a line-based file never is one.
  detect: () => false,
  initialState(path) {
    const data = dirname(path);
    const cwd = basename(data) === ".crush" ? dirname(data) : null;
    return { sessionId: null, unknown: {}, cwd, last: null, sub: false, model: null, calls: {} };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readRow);
  },
};

/** Crush writes its times in seconds (its schema says milliseconds: a database holding those reads too). */
function isoOf(at: unknown): string | null {
  if (typeof at !== "number" || at <= 0) return null;
  return new Date(at < 1e11 ? at * 1000 : at).toISOString();
}

function readRow(s: CrushState, row: Obj, line: SourceLine, sink: LineSink): void {
  const kind = str(row["row"]);
  const ts = isoOf(row["at"]);
  const sessionId = str(row["session_id"]) ?? "";
  if (kind === "session") return session(s, sessionId, row, line, ts, sink);
  if (kind !== "message") return unknownRecord(s, `row/${kind ?? ""}`, row, line, ts, sink);
  if (sessionId !== s.sessionId) {
    s.sessionId = sessionId;
    sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId });
  }
  const id = str(row["id"]) ?? `L${line.line}`;
  const model = str(row["model"]);
  if (model && model !== s.model) {
    s.model = model;
    sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId, model });
  }
  const role = str(row["role"]) ?? "";
  if (!ROLES.has(role)) return unknownRecord(s, `message/${role}`, row, line, ts, sink);
  const parts = arr(JSON.parse(str(row["parts"]) ?? "[]")) ?? [];
  const message: Message = { id, role, summary: row["summary"] === 1 || row["summary"] === true };
  parts.forEach((p, i) => {
    const before = sink.out.length;
    part(s, message, i, obj(p) ?? {}, line, ts, sink);
    if (sink.out.length > before) s.last = sink.out[sink.out.length - 1]!.key;
  });
}

interface Message {
  id: string;
  role: string;
  summary: boolean;
}

function session(s: CrushState, id: string, row: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const parent = str(row["parent"]) || null;
  s.sessionId = id;
  s.last = null;
  s.sub = parent !== null;
  s.model = null;
  const title = str(row["title"]);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: parent ? "subagent" : "main",
    startedAt: ts,
    ...(parent ? { parentSessionId: parent } : {}),
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(title ? { title } : {}),
  });
}

function part(s: CrushState, m: Message, i: number, p: Obj, line: SourceLine, ts: string | null, sink: LineSink) {
  const type = str(p["type"]) ?? "";
  const d = obj(p["data"]) ?? {};
  const key = `${m.id}#${i}`;
  const parentKey = s.last;
  switch (type) {
    case "text": {
      const text = str(d["text"]) ?? "";
      if (text.trim() === "") return;
      if (m.role === "assistant" && m.summary) {
        sink.out.push({ kind: "resume_point", line: line.line, ts, key, parentKey, pointKind: "compaction", text });
        return;
      }
      const role = m.role === "user" ? "user" : m.role === "system" ? "system" : "assistant";
      // A subagent's prompt is the model's words, handed over in the user's slot.
      const typed = role === "user" && !s.sub;
      sink.out.push({ kind: "message", line: line.line, ts, key, parentKey, role, text, typed });
      return;
    }
    case "tool_call": {
      const callId = str(d["id"]) ?? key;
      s.calls[callId] = m.id;
      sink.out.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key,
        parentKey,
        callId,
        name: str(d["name"]) ?? "unknown",
        input: jsonInput(d["input"]),
        messageKey: m.id,
      });
      return;
    }
    case "tool_result":
      return toolResult(s, key, parentKey, d, line, ts, sink);
    case "finish":
      return finish(key, parentKey, d, line, ts, sink);
    case "shell_command":
      return shellCommand(key, parentKey, d, line, ts, sink);
    case "image_url":
    case "binary":
      sink.out.push({
        kind: "message",
        line: line.line,
        ts,
        key,
        parentKey,
        role: "system",
        text: str(d["Path"]) ?? str(d["url"]) ?? type,
        typed: false,
        meta: { injected: "attachment" },
      });
      return;
    default:
      if (QUIET_PARTS.has(type)) return;
      unknownRecord(s, `part/${type}`, p, line, ts, sink);
  }
}

/** A tool call's arguments: a JSON object as a string (what the model streamed); kept as text when it is not one. */
function jsonInput(input: unknown): unknown {
  if (typeof input !== "string") return input ?? {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input.trim() === "" ? {} : input;
  }
}

/** The shell tool tells a failed command by a last line `Exit code N` after its output (and before `<cwd>`). */
const EXIT = /(?:^|\n)Exit code (-?\d+)(?:\n|$)/;

/**
 * The view tool's answer: the file inside `<file>…</file>`, each line behind a `     12|` gutter. A whole read is
 * kept as the file's own text; a cut one (a note that the file has more lines) or one followed by diagnostics stays
 * as the model saw it.
 */
const VIEWED = /^<file>\n([\s\S]*?)\n<\/file>\n?$/;
const PIPE_GUTTER = /^ *\d+\|/;

function viewedText(output: string): string {
  const body = VIEWED.exec(output)?.[1];
  if (body === undefined) return output;
  if (body === "") return "";
  const lines = body.split("\n");
  if (!lines.every((l) => PIPE_GUTTER.test(l))) return output;
  return lines.map((l) => l.replace(PIPE_GUTTER, "")).join("\n");
}

function toolResult(
  s: CrushState,
  key: string,
  parentKey: string | null,
  d: Obj,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const callId = str(d["tool_call_id"]) ?? key;
  const name = str(d["name"]);
  const content = str(d["content"]) ?? "";
  const output = name === "view" && d["is_error"] !== true ? viewedText(content) : content;
  const exit = name === "bash" ? EXIT.exec(output)?.[1] : undefined;
  const made = s.calls[callId];
  // A subagent's session is named after the assistant message and the call that ran it.
  const child = made && (name === "agent" || name === "agentic_fetch") ? `${made}$$${callId}` : null;
  sink.out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key,
    parentKey,
    callId,
    output,
    isError: d["is_error"] === true,
    exitCode: exit === undefined ? null : Number(exit),
    ...(child ? { meta: { child_session: child } } : {}),
  });
}

/** How a turn ended: an error or a cancel is said; an ordinary end (end_turn, tool_use, max_tokens) is not. */
function finish(key: string, parentKey: string | null, d: Obj, line: SourceLine, ts: string | null, sink: LineSink) {
  const reason = str(d["reason"]) ?? "";
  if (reason !== "error" && reason !== "canceled") return;
  const text = [str(d["message"]), str(d["details"])].filter((t) => t && t.trim() !== "").join(": ") || reason;
  const canceled = reason === "canceled";
  sink.out.push({
    kind: "notice",
    line: line.line,
    ts,
    key,
    parentKey,
    level: canceled ? "warning" : "error",
    text,
    ...(canceled ? { meta: { interrupt: true } } : {}),
  });
}

/** A command the person ran themselves (`!command`): their own shell call, not the agent's. */
function shellCommand(
  key: string,
  parentKey: string | null,
  d: Obj,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const callId = `shell:${key}`;
  const exitCode = typeof d["exit_code"] === "number" ? d["exit_code"] : null;
  sink.out.push({
    kind: "tool_call",
    line: line.line,
    ts,
    key,
    parentKey,
    callId,
    name: "bash",
    input: { command: str(d["command"]) ?? "" },
    meta: { user_initiated: true },
  });
  sink.out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key: `${key}#out`,
    parentKey: key,
    callId,
    output: str(d["output"]) ?? "",
    isError: null,
    exitCode,
    meta: { user_initiated: true },
  });
}
