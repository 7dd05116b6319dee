/**
 * One entry of an Auggie session's `chatHistory`: `{exchange, completed, finishedAt, isHistorySummary, …}`, the
 * exchange holding `request_nodes` (what went to the model: text `0`, tool result `1`, image `2`/`3`, workspace
 * state `4`, document `8`/`9`, history summary `10`) and `response_nodes` (what came back: text `0`, tool use `5`,
 * thinking `8`, token usage `10`). A node of another type is reported, never guessed at.
 */
import { arr, isObj, isoTime, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, unknownRecord } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

/** Where the exchange's records go, and what the reader tracks across exchanges. */
export interface ExchangeContext {
  s: LineState & { cwd: string | null };
  /** The session the records belong to (the main one, or a sub-agent's). */
  sessionId: string;
  /** A sub-agent's first message is the lead model's instruction, not anything a person typed. */
  sub: boolean;
  at: SourceLine;
  sink: LineSink;
}

/** Attachments: the user's message carried them; their bytes are not kept. */
const ATTACHMENTS: Record<number, string> = { 2: "image", 3: "image", 8: "document", 9: "document" };
/** The summary text Auggie puts in the user's slot when it hands a summarized history on as plain text. */
const SUPERVISOR = /^\s*<supervisor>[\s\S]*<\/supervisor>\s*$/;
/** `launch-process`: `<return-code>` and `<output>` around what the command printed. */
const PROCESS = /^[^\n]*\n<return-code>\n(-?\d+)\n<\/return-code>\n<output>\n([\s\S]*?)\n?<\/output>\s*$/;
/** `view`: a line naming the file before its numbered lines, and a line counting them after. */
const VIEW = /^Here's the result of running `cat -n` on [^\n]*:\n([\s\S]*?)(?:\nTotal lines in file: \d+\n?)?$/;

export function readEntry(c: ExchangeContext, entry: Obj, i: number): void {
  const x = obj(entry["exchange"]);
  if (!x) {
    unknownRecord(c.s, "chat history entry without an exchange", entry, c.at, null, c.sink);
    return;
  }
  const key = str(x["request_id"]) || `x${i}`;
  const responses = (arr(x["response_nodes"]) ?? []).filter(isObj);
  const ts =
    isoTime(responses.find((n) => n["timestamp_ms"] !== undefined)?.["timestamp_ms"]) ?? isoTime(entry["finishedAt"]);
  const base = { line: c.at.line, ts };
  if (entry["isHistorySummary"] === true) {
    // An older summary: a whole exchange standing for the history before it, the summary in the user's slot.
    const text = str(x["request_message"]) ?? "";
    c.sink.out.push({ kind: "resume_point", ...base, key, pointKind: "compaction", text });
    return;
  }
  request(c, x, key, base);
  response(c, x, responses, key, base, entry);
}

function request(c: ExchangeContext, x: Obj, key: string, base: { line: number; ts: string | null }): void {
  const nodes = (arr(x["request_nodes"]) ?? []).filter(isObj);
  const message = str(x["request_message"]);
  // Exchanges restored from the service may hold the message alone, without nodes.
  if (!nodes.some((n) => n["type"] === 0) && message) nodes.unshift({ type: 0, text_node: { content: message } });
  nodes.forEach((n, j) => {
    requestNode(c, n, `${key}#q${j}`, base);
  });
}

function requestNode(c: ExchangeContext, n: Obj, key: string, base: { line: number; ts: string | null }): void {
  const type = typeof n["type"] === "number" ? n["type"] : -1;
  switch (type) {
    case 0:
      return text(c, str(obj(n["text_node"])?.["content"]) ?? "", key, base);
    case 1:
      return result(obj(n["tool_result_node"]) ?? {}, key, base, c.sink);
    case 4:
      return workspace(c, obj(n["ide_state_node"]) ?? {}, base);
    case 10:
      return summary(n, key, base, c.sink);
    default: {
      const attachment = ATTACHMENTS[type];
      if (attachment) {
        c.sink.out.push({ kind: "notice", ...base, key, level: "info", text: `The user attached a ${attachment}.` });
        return;
      }
      unknownRecord(c.s, `request node ${type}`, n, c.at, base.ts, c.sink);
    }
  }
}

function text(c: ExchangeContext, content: string, key: string, base: { line: number; ts: string | null }): void {
  if (content.trim() === "") return;
  if (SUPERVISOR.test(content) && content.includes("<summary")) {
    c.sink.out.push({ kind: "resume_point", ...base, key, pointKind: "compaction", text: content });
    return;
  }
  const typed = !c.sub && !SUPERVISOR.test(content);
  c.sink.out.push({ kind: "message", ...base, key, role: "user", text: content, typed });
}

/** The folder the exchange ran in: the workspace's, else the terminal's; a change is a session update. */
function workspace(c: ExchangeContext, node: Obj, base: { line: number; ts: string | null }): void {
  const folder = obj((arr(node["workspace_folders"]) ?? [])[0]);
  const cwd =
    str(folder?.["folder_root"]) ??
    str(folder?.["repository_root"]) ??
    str(obj(node["current_terminal"])?.["current_working_directory"]);
  if (!cwd || cwd === c.s.cwd) return;
  c.s.cwd = cwd;
  c.sink.out.push({ kind: "session", ...base, key: "session", sessionId: c.sessionId, cwd });
}

/** A summary standing for the history before it; `history_end` re-states exchanges already read. */
function summary(n: Obj, key: string, base: { line: number; ts: string | null }, sink: LineSink): void {
  const node = obj(n["history_summary_node"]);
  const text = str(node?.["summary_text"]) ?? str(obj(n["text_node"])?.["content"]) ?? "";
  sink.out.push({
    kind: "resume_point",
    ...base,
    key,
    pointKind: "compaction",
    text,
    meta: {
      summarization_request: node?.["summarization_request_id"] ?? null,
      dropped_exchanges: node?.["history_beginning_dropped_num_exchanges"] ?? null,
      kept_exchanges: arr(node?.["history_end"])?.length ?? null,
    },
  });
}

function result(r: Obj, key: string, base: { line: number; ts: string | null }, sink: LineSink): void {
  const content = str(r["content"]) ?? contentNodes(r["content_nodes"]);
  const process = PROCESS.exec(content);
  const view = process ? null : VIEW.exec(content);
  sink.out.push({
    kind: "tool_result",
    ...base,
    key,
    callId: str(r["tool_use_id"]) ?? "",
    output: process ? (process[2] ?? "") : view ? (view[1] ?? "") : content,
    isError: typeof r["is_error"] === "boolean" ? r["is_error"] : null,
    exitCode: process ? Number(process[1]) : null,
    ...(typeof r["duration_ms"] === "number" ? { meta: { duration_ms: r["duration_ms"] } } : {}),
  });
}

/** A result given as content nodes: text (`1`) kept, an image (`2`) named. */
function contentNodes(v: unknown): string {
  return (arr(v) ?? [])
    .filter(isObj)
    .map((n) => (n["type"] === 1 ? (str(n["text_content"]) ?? "") : n["type"] === 2 ? "[image]" : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/**
 * A token-usage node: the tokens of the call that answered, in Anthropic's names (input apart from the cache reads
 * and writes). The exchange's request id with the node's place names the call.
 */
function callUsage(c: ExchangeContext, x: Obj, n: Obj, key: string, base: { line: number; ts: string | null }): void {
  const u = obj(n["token_usage"]);
  if (!u) return;
  const at = `${key}#u${typeof n["id"] === "number" ? n["id"] : ""}`;
  const rec = usageRecord(
    { ...base, key: at },
    {
      call: str(x["request_id"]) ? at : null,
      model: str(x["model_id"]) ?? null,
      input: count(u["input_tokens"]),
      output: count(u["output_tokens"]),
      cacheRead: count(u["cache_read_input_tokens"]),
      cacheWrite: count(u["cache_creation_input_tokens"]),
    },
  );
  if (rec) c.sink.out.push(rec);
}

function response(
  c: ExchangeContext,
  x: Obj,
  nodes: Obj[],
  key: string,
  base: { line: number; ts: string | null },
  entry: Obj,
): void {
  const parts: string[] = [];
  const calls: Obj[] = [];
  const meta: Obj = {};
  const model = str(x["model_id"]);
  if (model) meta["model"] = model;
  for (const n of nodes) {
    const type = typeof n["type"] === "number" ? n["type"] : -1;
    if (type === 0) parts.push(str(n["content"]) ?? "");
    else if (type === 5 && isObj(n["tool_use"])) calls.push(n["tool_use"]);
    else if (type === 8) {
      const t = obj(n["thinking"]);
      const thought = str(t?.["content"]) ?? str(t?.["summary"]);
      if (thought) meta["thinking"] = thought;
    } else if (type === 10) {
      meta["usage"] = n["token_usage"] ?? null;
      callUsage(c, x, n, key, base);
    } else unknownRecord(c.s, `response node ${type}`, n, c.at, base.ts, c.sink);
  }
  const said = parts.join("") || (str(x["response_text"]) ?? "");
  if (entry["completed"] === false) meta["completed"] = false;
  const k = `${key}#r`;
  if (said !== "" || calls.length === 0)
    c.sink.out.push({ kind: "message", ...base, key: k, role: "assistant", text: said, typed: false, meta });
  calls.forEach((u, i) => {
    const raw = str(u["input_json"]);
    let input: unknown = raw ?? {};
    try {
      if (raw !== undefined) input = JSON.parse(raw);
    } catch {
      // a call cut off mid-way: its input stays the text it was
    }
    c.sink.out.push({
      kind: "tool_call",
      ...base,
      key: `${key}#c${i}`,
      callId: str(u["tool_use_id"]) ?? `${key}#${i}`,
      name: str(u["tool_name"]) ?? "unknown",
      input,
      messageKey: said !== "" ? k : null,
    });
  });
}
