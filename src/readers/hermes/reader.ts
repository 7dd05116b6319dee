/**
 * Hermes Agent keeps every session of a profile in one SQLite database, `state.db`: `sessions` rows (`source`: cli,
 * a messaging platform, `subagent`; `parent_session_id` for a subagent's run, whose `model_config` names the session
 * it was delegated from as `_delegate_from`, for a `/branch`, marked `_branched_from`, and for the continuation an
 * older compaction started, its parent ended with `end_reason` `compression`) and `messages` rows in the model's chat
 * shape (`role` user | assistant | tool, `content` text or `\0json:` and a JSON list of parts, `tool_calls` JSON,
 * `tool_call_id`). A compaction in place keeps one session: it marks every live row archived (`active` 0,
 * `compacted` 1) and inserts the compacted conversation after them as new rows, copies of the turns it kept around a
 * summary message (`[CONTEXT COMPACTION — REFERENCE ONLY] …`). Those copies are skipped here: a row equal to an
 * archived row of its session (role, content, calls and call id) that has not been copied yet says nothing new.
 */
import { arr, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { resultOf } from "./results.ts";
import { USAGE_ROWS, usageRow } from "./usage.ts";

export interface HermesState extends LineState {
  /** Whether the current session is a subagent's (its prompt is the model's words). */
  sub: boolean;
  /** Archived rows of the current session not yet copied by a compaction: their fingerprints, counted. */
  archived: Record<string, number>;
  /** The key of the last record of this session: the next one's parent. */
  last: string | null;
}

/**
 * Sessions by start, each followed by its messages in insertion order (`id`: Hermes orders by it, not by the clock).
 * Columns are named, not `*`, so a column a newer release adds changes nothing.
 */
const ROWS = `
SELECT 'session' AS row, s.id AS session_id, NULL AS id, s.started_at AS at, s.parent_session_id AS parent,
  p.end_reason AS parent_end, s.source AS source, s.model AS model, s.model_config AS config, s.cwd AS cwd,
  s.git_branch AS branch, s.title AS title, s.end_reason AS end_reason,
  (SELECT MAX(version) FROM schema_version) AS schema,
  NULL AS role, NULL AS content, NULL AS tool_calls, NULL AS tool_call_id, NULL AS tool_name, NULL AS active,
  NULL AS compacted, NULL AS finish_reason,
  s.started_at AS o1, s.id AS o2, 0 AS o3
FROM sessions s LEFT JOIN sessions p ON p.id = s.parent_session_id
UNION ALL
SELECT 'message', m.session_id, m.id, m.timestamp, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_name, m.active, m.compacted, m.finish_reason,
  s.started_at, s.id, m.id
FROM messages m JOIN sessions s ON s.id = m.session_id
`;
const QUERY = `${ROWS}ORDER BY o1, o2, o3`;
/** With the running totals a newer schema keeps per session and model (see usage.ts), after the session's messages. */
const QUERY_WITH_USAGE = `${ROWS}UNION ALL
${USAGE_ROWS}
ORDER BY o1, o2, o3`;

/** What the compressor puts before its summary (older releases: `[CONTEXT SUMMARY]:`). */
const SUMMARY = /\[CONTEXT COMPACTION — REFERENCE ONLY\]|^\[CONTEXT SUMMARY\]:/;
/** Where the instructions around a summary end (every release's prefix closes so), and where the summary does. */
const SUMMARY_START = /avoid repeating it:\s*|^\[CONTEXT SUMMARY\]:\s*/;
const SUMMARY_END = /\s*--- END OF CONTEXT SUMMARY\b[^\n]*$/;

/** The summary alone, without the instructions to the model Hermes wraps it in. */
export function summaryOf(text: string): string {
  const start = SUMMARY_START.exec(text);
  const body = start ? text.slice(start.index + start[0].length) : text;
  return body.replace(SUMMARY_END, "");
}
const JSON_CONTENT = "\u0000json:";
const TABLES = ["sessions", "messages", "state_meta", "schema_version"];

export const hermesReader: Reader<HermesState> = {
  provider: "hermes",
  version: 2,
  database: { tables: TABLES, query: QUERY },
  // Databases are told apart by their tables; a line-based file never is one.
  detect: () => false,
  initialState() {
    return { sessionId: null, unknown: {}, sub: false, archived: {}, last: null };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readRow);
  },
};

/** A database with `session_model_usage` (Hermes 0.1x): the same reader, with each session's token totals. */
export const hermesUsageReader: Reader<HermesState> = {
  ...hermesReader,
  id: "hermes-usage",
  database: { tables: [...TABLES, "session_model_usage"], query: QUERY_WITH_USAGE },
};

function isoOf(at: unknown): string | null {
  return typeof at === "number" && at > 0 ? new Date(at * 1000).toISOString() : null;
}

function readRow(s: HermesState, row: Obj, line: SourceLine, sink: LineSink): void {
  const kind = str(row["row"]);
  const ts = isoOf(row["at"]);
  if (kind === "session") return session(s, row, line, ts, sink);
  if (kind === "usage") return usageRow(row, line, sink);
  if (kind !== "message") return unknownRecord(s, `row/${kind ?? ""}`, row, line, ts, sink);
  const role = str(row["role"]) ?? "";
  const print = fingerprint(row);
  const archived = row["compacted"] === 1;
  if ((s.archived[print] ?? 0) > 0) {
    // A compaction's copy of a turn it kept; archived again by a later compaction, it stays one to copy.
    if (!archived) s.archived[print]! -= 1;
    return;
  }
  if (archived) s.archived[print] = (s.archived[print] ?? 0) + 1;
  const key = `m${String(row["id"])}`;
  const before = sink.out.length;
  if (role === "user" || role === "assistant" || role === "system") message(s, row, role, key, line, ts, sink);
  else if (role === "tool") result(s, row, key, line, ts, sink);
  else if (role !== "session_meta") unknownRecord(s, `message/${role}`, row, line, ts, sink);
  if (sink.out.length > before) s.last = sink.out[sink.out.length - 1]!.key;
}

function fingerprint(row: Obj): string {
  return JSON.stringify([row["role"], row["content"], row["tool_calls"], row["tool_call_id"]]);
}

function session(s: HermesState, row: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const id = str(row["session_id"]) ?? "";
  const parent = str(row["parent"]) || null;
  const config = parseJson(str(row["config"])) ?? {};
  // A `/branch` goes on as a fork, a compaction's continuation as the same work; anything else with a parent is a
  // subagent's run.
  const fork = parent !== null && "_branched_from" in config;
  const continues = parent !== null && !fork && str(row["parent_end"]) === "compression";
  const sub = parent !== null && !fork && !continues;
  s.sessionId = id;
  s.sub = sub;
  s.archived = {};
  s.last = null;
  const [model, cwd, branch, title] = ["model", "cwd", "branch", "title"].map((k) => str(row[k]) || null);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: sub ? "subagent" : fork ? "fork" : "main",
    startedAt: ts,
    ...(sub || fork ? { parentSessionId: parent } : {}),
    ...(model ? { model } : {}),
    ...(cwd ? { cwd } : {}),
    ...(branch ? { gitBranch: branch } : {}),
    ...(title ? { title } : {}),
    meta: {
      hermes_schema: row["schema"] ?? null,
      source: row["source"] ?? null,
      end_reason: row["end_reason"] ?? null,
      ...(continues ? { continues: parent } : {}),
    },
  });
}

function parseJson(text: string | undefined): Obj | null {
  if (text === undefined || text === "") return null;
  try {
    return obj(JSON.parse(text)) ?? null;
  } catch {
    return null;
  }
}

/** A row's text: a string, or the parts a `\0json:` prefix stores (text parts kept, others named). */
export function contentOf(content: unknown): string {
  if (typeof content !== "string") return "";
  if (!content.startsWith(JSON_CONTENT)) return content;
  let parts: unknown;
  try {
    parts = JSON.parse(content.slice(JSON_CONTENT.length));
  } catch {
    return content.slice(JSON_CONTENT.length);
  }
  return (arr(parts) ?? [parts])
    .map((p) => (typeof p === "string" ? p : isObj(p) ? (str(p["text"]) ?? `[${str(p["type"]) ?? "part"}]`) : ""))
    .filter((t) => t !== "")
    .join("\n");
}

function message(
  s: HermesState,
  row: Obj,
  role: "user" | "assistant" | "system",
  key: string,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const base = { line: line.line, ts, parentKey: s.last };
  const text = contentOf(row["content"]);
  if (SUMMARY.test(text)) {
    sink.out.push({ kind: "resume_point", ...base, key, pointKind: "compaction", text: summaryOf(text) });
    return;
  }
  const calls = (arr(parseArray(str(row["tool_calls"]))) ?? []).filter(isObj);
  if (text.trim() !== "" || calls.length === 0) {
    // A subagent's task is the model's words, handed over in the user's slot.
    const typed = role === "user" && !s.sub;
    sink.out.push({ kind: "message", ...base, key, role, text, typed });
  }
  calls.forEach((c, i) => {
    const fn = obj(c["function"]) ?? {};
    const callId = str(c["id"]) ?? str(c["call_id"]) ?? `${key}#c${i}`;
    sink.out.push({
      kind: "tool_call",
      ...base,
      key: `${key}#${callId}`,
      callId,
      name: str(fn["name"]) ?? "unknown",
      input: argumentsOf(fn["arguments"]),
      messageKey: key,
    });
  });
}

function parseArray(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A call's arguments: a JSON object as a string (what the model streamed); kept as text when it is not one. */
function argumentsOf(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args.trim() === "" ? {} : args;
  }
}

function result(s: HermesState, row: Obj, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const callId = str(row["tool_call_id"]) ?? key;
  const { output, isError, exitCode } = resultOf(contentOf(row["content"]));
  sink.out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key,
    parentKey: s.last,
    callId,
    output,
    isError,
    exitCode,
  });
}
