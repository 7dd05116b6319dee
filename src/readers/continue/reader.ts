/**
 * Continue (its CLI `cn`, and the IDE extensions, which share the format): `~/.continue/sessions/<id>.json`, one JSON
 * document per session rewritten whole as it grows (`sessionId`, `title`, `workspaceDirectory`, `history`, then
 * optional `mode`, `chatModelTitle`, `usage`). Each history item holds one `message` (`user`, `assistant`, and in
 * the IDE's histories `thinking` and `tool`); an assistant message's `toolCalls` are answered in the item's
 * `toolCallStates` (`status`, `output[].content`), and a compaction is the assistant item carrying a
 * `conversationSummary`: the file then holds that summary in place of everything before it. Nothing in the document
 * has a time; the index beside it (`sessions.json`, not a transcript) says when each session was created.
 */
import { basename, dirname, join } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, contentText, isObj, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface ContinueState extends LineState {
  fallbackId: string;
  /** When the session was created, from the index beside it. */
  createdAt: string | null;
}

/** Titles the CLI and the IDE give a session before it has one of its own. */
const PLACEHOLDER_TITLES = new Set(["Untitled Session", "New Session", ""]);
/** A shell command that failed: the tool's error wraps what the command wrote to stderr. */
const SHELL_FAILURE = /^Error executing tool [^:]+: Error \(exit code (-?\d+)\): ([\s\S]*)$/;
/** What Read puts before the file's content. */
const READ_HEAD = /^Content of [^\n]*:\n/;
/** Tool call states without a result yet (the session was saved while the tool ran). */
const PENDING = new Set(["generating", "generated", "calling"]);
const FINISHED = new Set(["done", "errored", "canceled"]);
/** The document's first keys, as the CLI and the IDE write them: `{"sessionId": "…", "title": …`. */
const HEAD = /^\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"title"\s*:/;

export const continueReader: Reader<ContinueState> = {
  provider: "continue",
  version: 2,
  wholeFile: (path) => path.endsWith(".json"),
  detect(path, head) {
    if (path !== "")
      return /[\\/]\.continue[\\/]sessions[\\/][^\\/]+\.json$/.test(path) && basename(path) !== "sessions.json";
    const o = recordOf(head);
    if (o)
      return (
        typeof o["sessionId"] === "string" && typeof o["workspaceDirectory"] === "string" && Array.isArray(o["history"])
      );
    return HEAD.test(head) && /"workspaceDirectory"\s*:/.test(head);
  },
  context: (path) => [join(dirname(path), "sessions.json")],
  initialState(path, context = {}) {
    const id = basename(path).replace(/\.json$/, "");
    return {
      sessionId: null,
      unknown: {},
      fallbackId: id,
      createdAt: createdAt(context[join(dirname(path), "sessions.json")], id),
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, gather);
  },
};

/** The session's creation time in the index (`dateCreated`: milliseconds as a string, or an ISO time). */
function createdAt(index: string | undefined, id: string): string | null {
  if (index === undefined) return null;
  const raw = indexEntry(index, id)?.["dateCreated"];
  const ms = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : typeof raw === "number" ? raw : null;
  const date = ms !== null ? new Date(ms) : typeof raw === "string" ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

/**
 * The index's entry for one session. The index lists every session and is read once per session file: the entry
 * is found by its id and only its own object parsed, the whole index only when that object cannot be cut out
 * (a title holding a brace).
 */
function indexEntry(index: string, id: string): Obj | undefined {
  const at = index.indexOf(JSON.stringify(id));
  if (at === -1) return undefined;
  const start = index.lastIndexOf("{", at);
  const end = index.indexOf("}", at);
  if (start !== -1 && end !== -1) {
    const entry = recordOf(index.slice(start, end + 1));
    if (entry?.["sessionId"] === id) return entry;
  }
  let list: unknown;
  try {
    list = JSON.parse(index);
  } catch {
    return undefined;
  }
  return (arr(list) ?? []).find((e) => isObj(e) && e["sessionId"] === id) as Obj | undefined;
}

/** One reading of the document: where its records go, and which calls have their result already. */
interface Pass {
  s: ContinueState;
  at: SourceLine;
  sink: LineSink;
  answered: Set<string>;
  /** Reasoning the IDE keeps as `thinking` messages, waiting for the reply it came before. */
  thinking: string[];
}

type Base = { line: number; ts: null; key: string };

/**
 * Reads the document, which comes whole as one line (`wholeFile`). One that does not parse (cut short while the
 * CLI rewrote it, or damaged) is a problem; it is read again once the file changes.
 */
function gather(s: ContinueState, line: SourceLine, sink: LineSink): boolean {
  const parsed = wholeDocument(line, sink);
  if (!parsed) return true;
  const doc = parsed.doc;
  const at = { text: "", line: line.line };
  const history = isObj(doc) ? arr(doc["history"]) : undefined;
  if (!isObj(doc) || !history) {
    sink.problems.push(problem(at, "not a Continue session document"));
    return true;
  }
  session(s, doc, history, at, sink);
  const pass: Pass = { s, at, sink, answered: new Set(), thinking: [] };
  history.forEach((item, i) => {
    const m = isObj(item) ? obj(item["message"]) : undefined;
    if (!isObj(item) || !m) sink.problems.push(problem(at, `history item ${i} has no message`));
    else historyItem(pass, item, m, { line: at.line, ts: null, key: `h${i}` });
  });
  return true;
}

function historyItem(p: Pass, item: Obj, m: Obj, base: Base): void {
  const role = str(m["role"]) ?? "";
  switch (role) {
    case "user":
    case "system": {
      const text = contentText(m["content"]);
      if (text.trim() === "") return;
      const context = (arr(item["contextItems"]) ?? []).map((c) => str(obj(c)?.["name"])).filter(Boolean);
      p.sink.out.push({
        kind: "message",
        ...base,
        role,
        text,
        typed: role === "user",
        ...(context.length > 0 ? { meta: { context_items: context } } : {}),
      });
      return;
    }
    case "thinking":
      p.thinking.push(contentText(m["content"]));
      return;
    case "assistant":
      assistant(p, item, m, base);
      p.thinking = [];
      return;
    case "tool":
      toolMessage(p, m, base);
      return;
    default:
      unknownRecord(p.s, `message/${role}`, m, p.at, null, p.sink);
  }
}

function session(s: ContinueState, doc: Obj, history: unknown[], at: SourceLine, sink: LineSink): void {
  s.sessionId = str(doc["sessionId"]) ?? s.fallbackId;
  const title = str(doc["title"]) ?? "";
  const model =
    str(doc["chatModelTitle"]) ??
    history.map((h) => str(obj(obj(obj(h)?.["message"])?.["usage"])?.["model"])).find((m) => m !== undefined);
  const meta: Obj = {};
  if (typeof doc["mode"] === "string") meta["mode"] = doc["mode"];
  if (isObj(doc["usage"])) meta["usage"] = doc["usage"];
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: s.createdAt,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    startedAt: s.createdAt,
    ...(str(doc["workspaceDirectory"]) ? { cwd: str(doc["workspaceDirectory"]) } : {}),
    ...(PLACEHOLDER_TITLES.has(title.trim()) ? {} : { title }),
    ...(model ? { model } : {}),
    meta,
  });
}

/**
 * The reply's `usage`, in the OpenAI form: `prompt_tokens` holds the cached part (`promptTokensDetails`), which is
 * taken out. Its `cost_cents` is not kept: in the CLI's own files it stays 0 while the session's `totalCost` grows.
 * The document is read whole each time: a reply is one call, with no id to name it by.
 */
function callUsage(u: Obj, base: Base, sink: LineSink): void {
  const details = obj(u["promptTokensDetails"]) ?? obj(u["prompt_tokens_details"]) ?? {};
  const prompt = count(u["prompt_tokens"]);
  const cacheRead = Math.min(count(details["cachedTokens"] ?? details["cached_tokens"]), prompt);
  const cacheWrite = Math.min(count(details["cacheWriteTokens"]), prompt - cacheRead);
  const rec = usageRecord(
    { ...base, key: `${base.key}#u` },
    {
      model: str(u["model"]) ?? null,
      input: prompt - cacheRead - cacheWrite,
      output: count(u["completion_tokens"]),
      cacheRead,
      cacheWrite,
    },
  );
  if (rec) sink.out.push(rec);
}

function assistant(p: Pass, item: Obj, m: Obj, base: Base): void {
  const summary = str(item["conversationSummary"]);
  if (summary !== undefined) {
    // What a compaction left in place of the history before it (the same text is the item's message).
    p.sink.out.push({
      kind: "resume_point",
      ...base,
      key: `summary:${base.key}`,
      pointKind: "compaction",
      text: summary,
    });
    return;
  }
  const text = contentText(m["content"]);
  const calls = (arr(m["toolCalls"]) ?? []).filter(isObj);
  const meta: Obj = {};
  const usage = obj(m["usage"]);
  if (usage) {
    meta["usage"] = usage;
    if (str(usage["model"])) meta["model"] = usage["model"];
    callUsage(usage, base, p.sink);
  }
  const reasoning = [...p.thinking, str(obj(item["reasoning"])?.["text"]) ?? ""].filter((t) => t.trim() !== "");
  if (reasoning.length > 0) meta["thinking"] = reasoning.join("\n\n");
  if (text !== "" || calls.length === 0)
    p.sink.out.push({ kind: "message", ...base, role: "assistant", text, typed: false, meta });
  const states = new Map<string, Obj>();
  for (const st of (arr(item["toolCallStates"]) ?? []).filter(isObj)) {
    const id = str(st["toolCallId"]);
    if (id) states.set(id, st);
  }
  calls.forEach((c, j) => {
    const fn = obj(c["function"]) ?? {};
    const callId = str(c["id"]) ?? `${base.key}#${j}`;
    const name = str(fn["name"]) ?? "unknown";
    const state = states.get(callId);
    p.sink.out.push({
      kind: "tool_call",
      ...base,
      key: `call:${callId}`,
      callId,
      name,
      input: inputOf(state?.["parsedArgs"], fn["arguments"]),
      messageKey: text !== "" ? base.key : null,
    });
    if (state) result(p, state, callId, name, base);
  });
}

/** The call's arguments as the CLI parsed them, else its JSON text parsed here, else the text as it is. */
function inputOf(parsed: unknown, raw: unknown): unknown {
  if (isObj(parsed) && Object.keys(parsed).length > 0) return parsed;
  if (typeof raw !== "string") return parsed ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function result(p: Pass, state: Obj, callId: string, name: string, base: Base): void {
  const status = str(state["status"]) ?? "";
  if (PENDING.has(status)) return;
  if (!FINISHED.has(status)) {
    unknownRecord(p.s, `toolCallState/${status}`, state, p.at, null, p.sink);
    return;
  }
  const raw = (arr(state["output"]) ?? []).map((o) => str(obj(o)?.["content"]) ?? "").join("\n");
  const failed = SHELL_FAILURE.exec(raw);
  p.answered.add(callId);
  p.sink.out.push({
    kind: "tool_result",
    ...base,
    key: `result:${callId}`,
    callId,
    // Read says which file before its content: the file is what it read.
    output: failed ? (failed[2] ?? "") : name === "Read" && status === "done" ? raw.replace(READ_HEAD, "") : raw,
    isError: status !== "done",
    exitCode: failed ? Number(failed[1]) : null,
    meta: { status },
  });
}

/** A tool's answer kept as a message of its own (the IDE's histories), unless its call's state gave it already. */
function toolMessage(p: Pass, m: Obj, base: Base): void {
  const callId = str(m["toolCallId"]);
  if (!callId || p.answered.has(callId)) return;
  p.answered.add(callId);
  p.sink.out.push({
    kind: "tool_result",
    ...base,
    key: `result:${callId}`,
    callId,
    output: contentText(m["content"]),
    isError: null,
    exitCode: null,
  });
}
