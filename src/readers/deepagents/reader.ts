/**
 * Deep Agents Code keeps every thread of a profile in one SQLite database, `<profile>/.state/sessions.db`: LangGraph's
 * SQLite checkpointer (`checkpoints`, `writes`) plus its own `dcode_thread_workspaces`. A thread is a `thread_id`;
 * a subagent's run is a checkpoint namespace of its own in the same thread (`tools:<task id>`). The conversation is
 * not one row: `messages` is a delta channel, so each step's `writes` row for it holds the messages that step added
 * (MessagePack, LangChain message objects, see msgpack.ts), and checkpoints inline the whole list only now and then.
 * The rows are read in step order (`checkpoint_id` is a time-ordered UUID), so the writes are the conversation; a
 * message is known by its `id`, and one already seen (a forked subagent starts from copies of its parent's
 * messages) says nothing new. A compaction is a `_summarization_event` write: the summary message and where the
 * history was cut. Tool results say failure by `status: "error"` or, for a command, `artifact.exit_code`.
 */
import { arr, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";
import { unpackHex } from "./msgpack.ts";

export interface DeepAgentsState extends LineState {
  /** The current namespace's session is a subagent's (its task is the model's words). */
  sub: boolean;
  /** Message ids already read in this thread. */
  seen: Record<string, true>;
  thread: string | null;
  model: string | null;
  last: string | null;
  /** The checkpoint the last row was written at, and its time. */
  step: string | null;
  stepTs: string | null;
}

/**
 * One row per thread and namespace (from its first checkpoint's metadata), then the writes of the two channels
 * read, in step order. Columns are named, so a column a newer release adds changes nothing; values come as hex.
 */
const QUERY = `
SELECT 'session' AS row, c.thread_id AS thread, c.checkpoint_ns AS ns, MIN(c.checkpoint_id) AS cp, NULL AS channel,
  NULL AS value, json_extract(CAST(c.metadata AS TEXT), '$.cwd') AS cwd,
  json_extract(CAST(c.metadata AS TEXT), '$.git_branch') AS branch,
  json_extract(CAST(c.metadata AS TEXT), '$.ls_integration_version') AS version,
  c.thread_id AS o1, c.checkpoint_ns AS o2, '' AS o3, '' AS o4, -1 AS o5
FROM checkpoints c GROUP BY c.thread_id, c.checkpoint_ns
UNION ALL
SELECT 'write', w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.channel, hex(w.value), NULL, NULL, NULL,
  w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, w.idx
FROM writes w WHERE w.channel IN ('messages', '_summarization_event') AND w.type = 'msgpack'
ORDER BY o1, o2, o3, o4, o5`;

/** Fields of a message never read here: calls that did not parse. */
const UNREAD = new Set(["invalid_tool_calls"]);
/** What dcode puts before a compaction's summary, and before its own notices to the model. */
const SUMMARY_START = /A condensed summary follows:\s*/;
const SYSTEM_PREFIX = "[SYSTEM]";
/** UUID v6 (LangGraph's checkpoint ids) counts 100 ns from 1582-10-15; this is that day in Unix milliseconds. */
const GREGORIAN_MS = -12_219_292_800_000;

export const deepAgentsReader: Reader<DeepAgentsState> = {
  provider: "deepagents",
  version: 2,
  // LangGraph's two tables alone are any LangGraph application's; the third is dcode's.
  database: { tables: ["checkpoints", "writes", "dcode_thread_workspaces"], query: QUERY },
  detect: () => false,
  initialState() {
    return {
      sessionId: null,
      unknown: {},
      sub: false,
      seen: {},
      thread: null,
      model: null,
      last: null,
      step: null,
      stepTs: null,
    };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readRow);
  },
};

/** The time a version-6 UUID carries, or null for another kind of id. */
export function uuid6Time(id: unknown): string | null {
  if (typeof id !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-/.test(id)) return null;
  const ticks = Number.parseInt(id.slice(0, 8), 16) * 2 ** 28 + Number.parseInt(id.slice(9, 13), 16) * 2 ** 12;
  const ms = (ticks + Number.parseInt(id.slice(15, 18), 16)) / 10_000 + GREGORIAN_MS;
  return new Date(Math.floor(ms)).toISOString();
}

function readRow(s: DeepAgentsState, row: Obj, line: SourceLine, sink: LineSink): void {
  // A step's writes come together: its time is read off its id once.
  if (row["cp"] !== s.step) {
    s.step = str(row["cp"]) ?? null;
    s.stepTs = uuid6Time(s.step);
  }
  const ts = s.stepTs;
  const kind = str(row["row"]);
  if (kind === "session") return session(s, row, line, ts, sink);
  if (kind !== "write") return unknownRecord(s, `row/${kind ?? ""}`, row, line, ts, sink);
  const value = unpackHex(str(row["value"]) ?? "", UNREAD);
  const base = { line: line.line, ts };
  if (row["channel"] === "_summarization_event") return compaction(s, value, row, base, sink);
  for (const m of arr(value) ?? [value]) {
    if (!isObj(m)) continue;
    const id = str(m["id"]) ?? `${str(row["cp"])}#${line.line}`;
    if (s.seen[id]) continue;
    s.seen[id] = true;
    const before = sink.out.length;
    message(s, m, { ...base, key: id, parentKey: s.last }, line, sink);
    if (sink.out.length > before) s.last = sink.out[sink.out.length - 1]!.key;
  }
}

function session(s: DeepAgentsState, row: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const thread = str(row["thread"]) ?? "";
  const ns = str(row["ns"]) ?? "";
  if (thread !== s.thread) s.seen = {};
  s.thread = thread;
  s.sub = ns !== "";
  s.sessionId = s.sub ? `${thread}/${ns.slice(ns.lastIndexOf(":") + 1)}` : thread;
  s.model = null;
  s.last = null;
  const [cwd, branch] = [str(row["cwd"]), str(row["branch"])];
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: s.sub ? "subagent" : "main",
    startedAt: ts,
    ...(s.sub ? { parentSessionId: thread } : {}),
    ...(cwd ? { cwd } : {}),
    ...(branch ? { gitBranch: branch } : {}),
    meta: { deepagents_version: row["version"] ?? null, ...(s.sub ? { namespace: ns } : {}) },
  });
}

type Base = { line: number; ts: string | null; key: string; parentKey: string | null };

function message(s: DeepAgentsState, m: Obj, base: Base, line: SourceLine, sink: LineSink): void {
  const type = str(m["type"]);
  if (type === "human") return human(s, m, base, sink);
  if (type === "ai") return ai(s, m, base, sink);
  if (type === "tool") return toolResult(m, base, sink);
  if (type === "system") {
    sink.out.push({ kind: "message", ...base, role: "system", text: textOf(m["content"]), typed: false });
    return;
  }
  // A removal takes a message out of the model's view; what it said stays read.
  if (type !== "remove") unknownRecord(s, `message/${type ?? ""}`, m, line, base.ts, sink);
}

function human(s: DeepAgentsState, m: Obj, base: Base, sink: LineSink): void {
  const text = textOf(m["content"]);
  // dcode's own notices (local context, goals, summaries) carry an `lc_source` or start with `[SYSTEM]`.
  const internal = str(obj(m["additional_kwargs"])?.["lc_source"]) !== undefined || text.startsWith(SYSTEM_PREFIX);
  if (internal) {
    sink.out.push({ kind: "message", ...base, role: "system", text, typed: false });
    return;
  }
  // A subagent's task is the model's words, handed over in the user's slot.
  sink.out.push({ kind: "message", ...base, role: "user", text, typed: !s.sub });
}

function ai(s: DeepAgentsState, m: Obj, base: Base, sink: LineSink): void {
  const model = str(obj(m["response_metadata"])?.["model_name"]);
  if (model && model !== s.model && s.sessionId) {
    s.model = model;
    sink.out.push({ kind: "session", ...base, key: "session", sessionId: s.sessionId, model });
  }
  callUsage(m, model ?? s.model, base, sink);
  const calls = (arr(m["tool_calls"]) ?? []).filter(isObj);
  const text = textOf(m["content"]);
  if (text.trim() !== "" || calls.length === 0)
    sink.out.push({ kind: "message", ...base, role: "assistant", text, typed: false });
  calls.forEach((c, i) => {
    const callId = str(c["id"]) ?? `${base.key}#c${i}`;
    sink.out.push({
      kind: "tool_call",
      ...base,
      key: `${base.key}#${callId}`,
      callId,
      name: str(c["name"]) ?? "unknown",
      input: c["args"] ?? {},
      messageKey: base.key,
    });
  });
}

/**
 * LangChain's `usage_metadata` of the call that wrote an AI message: `input_tokens` is the sum of every input kind,
 * the cache reads and writes (`input_token_details.cache_read`, `cache_creation`) among them; `output_tokens` holds
 * the reasoning (`output_token_details.reasoning`). The message id (the provider's response id) names the call: a
 * forked subagent starts from copies of its parent's messages.
 */
function callUsage(m: Obj, model: string | null, base: Base, sink: LineSink): void {
  const u = obj(m["usage_metadata"]);
  if (!u) return;
  const inDetails = obj(u["input_token_details"]);
  const read = count(inDetails?.["cache_read"]);
  const write = count(inDetails?.["cache_creation"]);
  const rec = usageRecord(
    { line: base.line, ts: base.ts, key: `${base.key}#u` },
    {
      call: str(m["id"]) ?? null,
      model,
      input: Math.max(0, count(u["input_tokens"]) - read - write),
      output: count(u["output_tokens"]),
      cacheRead: read,
      cacheWrite: write,
      reasoning: count(obj(u["output_token_details"])?.["reasoning"]),
    },
  );
  if (rec) sink.out.push(rec);
}

function toolResult(m: Obj, base: Base, sink: LineSink): void {
  const code = obj(m["artifact"])?.["exit_code"];
  const exitCode = typeof code === "number" ? code : null;
  sink.out.push({
    kind: "tool_result",
    ...base,
    callId: str(m["tool_call_id"]) ?? "",
    output: outputOf(str(m["name"]), textOf(m["content"])),
    isError: m["status"] === "error" || (exitCode !== null && exitCode !== 0),
    exitCode,
  });
}

function compaction(
  s: DeepAgentsState,
  value: unknown,
  row: Obj,
  base: Omit<Base, "key" | "parentKey">,
  sink: LineSink,
): void {
  const event = obj(value);
  if (!event) return;
  const summary = textOf(obj(event["summary_message"])?.["content"]);
  const start = SUMMARY_START.exec(summary);
  const key = `compaction#${str(row["cp"])}`;
  sink.out.push({
    kind: "resume_point",
    ...base,
    key,
    parentKey: s.last,
    pointKind: "compaction",
    text: start ? summary.slice(start.index + start[0].length) : summary,
  });
  s.last = key;
}

/** The trailer the SDK adds to a command's report, and the exit line before it when the command failed. */
const SHELL_TRAILER = /\n*\[Command (?:succeeded|failed) with exit code -?\d+\]\s*$/;
const SHELL_EXIT = /\n*Exit code: -?\d+\s*$/;
/** The status line `read_file` puts above the lines it shows. */
const READ_HEADER = /^@@ lines \d+-\d+(?: of \d+)?(?: \| [^\n]*)? @@\n/;

/**
 * What the tool itself gave: a command's output without the exit lines and the `[stderr] ` each error line is
 * marked with (`deepagents/backends/local_shell.py`), a file without the read's status line.
 */
function outputOf(tool: string | undefined, text: string): string {
  if (tool === "execute") {
    const out = text.replace(SHELL_TRAILER, "").replace(SHELL_EXIT, "");
    return out === "<no output>" ? "" : out.replace(/^\[stderr\] /gm, "");
  }
  if (tool === "read_file") return text.replace(READ_HEADER, "");
  return text;
}

/** A message's text: a string, or its `text` blocks (a call or reasoning block is not words said). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return (arr(content) ?? [])
    .map((b) => (typeof b === "string" ? b : isObj(b) && b["type"] === "text" ? (str(b["text"]) ?? "") : ""))
    .filter((t) => t !== "")
    .join("\n");
}
