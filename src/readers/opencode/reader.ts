/**
 * OpenCode (and its fork Kilo Code) keep every session in one SQLite database: `session` rows (`parent_id` for a
 * subagent's), `message` rows (JSON `data`: role, agent, `summary` on a compaction's summary, `error`) and `part`
 * rows (JSON `data`, `type` text | reasoning | tool | step-start | step-finish | patch | compaction | file |
 * agent | subtask | …; a tool part carries its call and, once done, its result in `state`, the shell's exit code
 * in `state.metadata.exit`). The query orders the rows session by session, each message followed by its parts,
 * and the indexer hands them over as JSON lines.
 */
import { isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";
import type { Provider } from "../vocabulary.ts";

export interface OpenCodeState extends LineState {
  /** The message the parts that follow belong to. */
  message: { id: string; role: string; summary: boolean } | null;
  /** The key of the last record of this session: the next one's parent (message rows make none of their own). */
  last: string | null;
}

/** Parts that carry nothing the conversation needs (step brackets, snapshots, the files a step changed). */
const QUIET_PARTS = new Set(["step-start", "step-finish", "snapshot", "patch", "retry"]);

/**
 * Sessions first (by creation), then each session's messages by creation, each followed by its parts. Columns are
 * named, not `*`, so a column a newer release adds changes nothing; JSON `data` goes through as it is.
 */
const QUERY = `
SELECT 'session' AS row, s.id AS session_id, s.id AS id, NULL AS message_id, s.time_created AS at,
  json_object('parent_id', s.parent_id, 'directory', s.directory, 'title', s.title, 'version', s.version) AS data,
  s.time_created AS o1, '' AS o2, 0 AS o3, 0 AS o4, '' AS o5
FROM session s
UNION ALL
SELECT 'message', m.session_id, m.id, m.id, m.time_created, m.data, s.time_created, s.id, m.time_created, 1, m.id
FROM message m JOIN session s ON s.id = m.session_id
UNION ALL
SELECT 'part', p.session_id, p.id, p.message_id, p.time_created, p.data, s.time_created, s.id, m.time_created, 2,
  m.id || ' ' || p.id
FROM part p JOIN message m ON m.id = p.message_id JOIN session s ON s.id = m.session_id
ORDER BY o1, o2, o3, o5, o4`;

export function opencodeReader(provider: Provider, tables: readonly string[]): Reader<OpenCodeState> {
  return {
    provider,
    version: 2,
    database: { tables, query: QUERY },
    // Databases are told apart by their tables; a line-based file never is one.
    detect: () => false,
    initialState() {
      return { sessionId: null, unknown: {}, message: null, last: null };
    },
    parse(lines, state) {
      return parseLines(lines, structuredClone(state), readRow);
    },
  };
}

function readRow(s: OpenCodeState, row: Obj, line: SourceLine, sink: LineSink): void {
  const kind = str(row["row"]);
  const at = row["at"];
  const ts = typeof at === "number" ? new Date(at).toISOString() : null;
  const data = typeof row["data"] === "string" ? (JSON.parse(row["data"]) as unknown) : row["data"];
  const d = obj(data) ?? {};
  const sessionId = str(row["session_id"]) ?? "";
  if (kind === "session") return session(s, sessionId, d, line, ts, sink);
  if (sessionId !== s.sessionId) {
    s.sessionId = sessionId;
    sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId });
  }
  const id = str(row["id"]) ?? `L${line.line}`;
  if (kind === "message") {
    s.message = { id, role: str(d["role"]) ?? "", summary: d["summary"] === true };
    const tokens = obj(d["tokens"]);
    if (tokens && s.message.role === "assistant") callUsage(id, d, tokens, line, ts, sink);
    const error = obj(d["error"]);
    if (error) {
      const text = str(obj(error["data"])?.["message"]) ?? str(error["name"]) ?? "error";
      const aborted = str(error["name"]) === "MessageAbortedError";
      sink.out.push({
        kind: "notice",
        line: line.line,
        ts,
        key: `${id}#error`,
        level: aborted ? "warning" : "error",
        text,
        ...(aborted ? { meta: { interrupt: true } } : {}),
      });
    }
    return;
  }
  if (kind === "part") {
    const before = sink.out.length;
    part(s, id, str(row["message_id"]) ?? "", d, line, ts, sink);
    if (sink.out.length > before) s.last = sink.out[sink.out.length - 1]!.key;
    return;
  }
  unknownRecord(s, `row/${kind ?? ""}`, row, line, ts, sink);
}

/**
 * An assistant message is one model call (each step of a turn is a message of its own); its `tokens` and the
 * `cost` in dollars OpenCode priced it at. OpenCode already takes the cached tokens out of `input`. Whether
 * `output` holds the reasoning depends on the provider's SDK: the total says (reasoning outside when the total
 * counts it apart).
 */
function callUsage(id: string, d: Obj, t: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const cache = obj(t["cache"]) ?? {};
  const c = {
    input: count(t["input"]),
    output: count(t["output"]),
    reasoning: count(t["reasoning"]),
    cacheRead: count(cache["read"]),
    cacheWrite: count(cache["write"]),
  };
  const apart = c.reasoning > 0 && count(t["total"]) === c.input + c.output + c.reasoning + c.cacheRead + c.cacheWrite;
  const cost = d["cost"];
  const rec = usageRecord(
    { line: line.line, ts, key: `${id}#u` },
    {
      ...c,
      output: apart ? c.output + c.reasoning : c.output,
      call: id,
      model: str(d["modelID"]) ?? null,
      cost: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    },
  );
  if (rec) sink.out.push(rec);
}

function session(s: OpenCodeState, id: string, d: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const parent = str(d["parent_id"]) ?? null;
  s.sessionId = id;
  s.message = null;
  s.last = null;
  const title = str(d["title"]);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: parent ? "subagent" : "main",
    startedAt: ts,
    ...(parent ? { parentSessionId: parent } : {}),
    ...(str(d["directory"]) ? { cwd: str(d["directory"]) } : {}),
    ...(title ? { title } : {}),
    meta: { version: d["version"] ?? null },
  });
}

function part(
  s: OpenCodeState,
  key: string,
  messageId: string,
  d: Obj,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const type = str(d["type"]) ?? "";
  const role = s.message?.id === messageId ? s.message.role : "";
  const parentKey = s.last;
  switch (type) {
    case "text": {
      const text = str(d["text"]) ?? "";
      if (text.trim() === "") return;
      if (role === "assistant" && s.message?.summary) {
        sink.out.push({ kind: "resume_point", line: line.line, ts, key, parentKey, pointKind: "compaction", text });
        return;
      }
      if (role === "user") {
        // Text the harness adds beside a prompt (a file's contents, a command's expansion) is marked synthetic.
        const harness = d["synthetic"] === true || d["ignored"] === true;
        sink.out.push({
          kind: "message",
          line: line.line,
          ts,
          key,
          parentKey,
          role: harness ? "system" : "user",
          text,
          typed: !harness,
          ...(harness ? { meta: { injected: "synthetic" } } : {}),
        });
        return;
      }
      sink.out.push({ kind: "message", line: line.line, ts, key, parentKey, role: "assistant", text, typed: false });
      return;
    }
    case "reasoning":
      return;
    case "tool":
      return tool(key, parentKey, d, line, ts, sink);
    case "compaction":
      // The request to compact (the user's /compact or an automatic one); the summary that follows is the point.
      return;
    case "file":
    case "agent":
    case "subtask":
      sink.out.push({
        kind: "message",
        line: line.line,
        ts,
        key,
        parentKey,
        role: "system",
        text: str(d["filename"]) ?? str(d["name"]) ?? str(d["prompt"]) ?? type,
        typed: false,
        meta: { injected: type },
      });
      return;
    default:
      if (QUIET_PARTS.has(type)) return;
      unknownRecord(s, `part/${type}`, d, line, ts, sink);
  }
}

function tool(
  key: string,
  parentKey: string | null,
  d: Obj,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const st = obj(d["state"]) ?? {};
  const callId = str(d["callID"]) ?? key;
  sink.out.push({
    kind: "tool_call",
    line: line.line,
    ts,
    key,
    parentKey,
    callId,
    name: str(d["tool"]) ?? "unknown",
    input: st["input"] ?? {},
  });
  const status = str(st["status"]);
  if (status !== "completed" && status !== "error") return;
  const meta = obj(st["metadata"]) ?? {};
  const exit = meta["exit"];
  const output = status === "error" ? (str(st["error"]) ?? "") : (str(st["output"]) ?? "");
  const end = obj(st["time"])?.["end"];
  sink.out.push({
    kind: "tool_result",
    line: line.line,
    ts: typeof end === "number" ? new Date(end).toISOString() : ts,
    key: `${key}#result`,
    parentKey: key,
    callId,
    output,
    isError: status === "error",
    exitCode: typeof exit === "number" ? exit : null,
    ...(isObj(meta) && str(meta["sessionId"]) ? { meta: { child_session: str(meta["sessionId"]) } } : {}),
  });
}
