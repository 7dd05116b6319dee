/**
 * Nanocoder: `<data>/sessions/<uuid>.json`, one JSON document per session rewritten as it grows (`id`, `title`,
 * `createdAt`, `lastAccessedAt`, `messageCount`, `provider`, `model`, `workingDirectory`, `messages[]` in the
 * chat-completions shape: `user`/`assistant`/`tool` roles, an assistant's `tool_calls[].function.{name,
 * arguments}`, a tool message's `tool_call_id`). Messages carry no time and no id. A failed tool result is
 * `isError`, or, as Nanocoder's own history view tells, text starting `Error: ` or `⚒ Validation failed`; the
 * shell tool's result starts with its `EXIT_CODE: N`. An automatic compaction replaces the earlier messages with
 * one user message holding a `<conversation-summary>`. `sessions.json` beside them is the index, not a session.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { arr, isObj, isoTime, type Obj, obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";

export interface NanocoderState extends LineState {
  fallbackId: string;
}

const SESSION_FILE =
  /[\\/]nanocoder[\\/]sessions[\\/][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;
const SUMMARY = /^\s*<conversation-summary>\n?([\s\S]*?)\n?<\/conversation-summary>/;
const FAILED = /^(Error: |⚒ Validation failed)/;
/** The shell tool's result: a failure to run first, then the exit code, then stderr and stdout when both say something. */
const SHELL = /^(Error: [^\n]*\n)?EXIT_CODE: (-?\d+)\n/;
const STREAMS = /^STDERR:\n([\s\S]*?)\nSTDOUT:\n([\s\S]*)$/;

export const nanocoderReader: Reader<NanocoderState> = {
  provider: "nanocoder",
  version: 1,
  wholeFile: (path) => path.endsWith(".json"),
  detect(path, head) {
    if (SESSION_FILE.test(path)) return true;
    if (path !== "") return false;
    // The document's head: its id, its counters and when it was last used, before the messages.
    return [/"id"\s*:\s*"/, /"lastAccessedAt"\s*:/, /"messageCount"\s*:\s*\d/].every((re) => re.test(head));
  },
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path).replace(/\.json$/, "") };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, gather);
  },
};

/** The document comes whole, as one line (`wholeFile`); one cut short while it was rewritten is read again later. */
function gather(s: NanocoderState, line: SourceLine, sink: LineSink): boolean {
  const whole = wholeDocument(line, sink);
  if (!whole) return true;
  const { doc } = whole;
  const at = { text: "", line: line.line };
  const messages = isObj(doc) ? arr(doc["messages"]) : undefined;
  if (!isObj(doc) || !messages) {
    sink.problems.push(problem(at, "not a Nanocoder session document"));
    return true;
  }
  s.sessionId = str(doc["id"]) ?? s.fallbackId;
  const started = isoTime(doc["createdAt"]);
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: started,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    startedAt: started,
    cwd: str(doc["workingDirectory"]) ?? null,
    title: str(doc["title"]) ?? null,
    model: str(doc["model"]) ?? null,
    meta: { ...(str(doc["provider"]) ? { model_provider: doc["provider"] } : {}) },
  });
  messages.forEach((m, i) => {
    if (isObj(m)) message(s, m, `m${i}`, at, sink);
    else sink.problems.push(problem(at, `message ${i} is not an object`));
  });
  return true;
}

function message(s: NanocoderState, m: Obj, key: string, at: SourceLine, sink: LineSink): void {
  const role = str(m["role"]);
  const text = typeof m["content"] === "string" ? m["content"] : "";
  const base = { line: at.line, ts: null, key };
  switch (role) {
    case "user": {
      const summary = SUMMARY.exec(text);
      if (summary) {
        sink.out.push({ kind: "resume_point", ...base, pointKind: "compaction", text: (summary[1] ?? "").trim() });
        return;
      }
      if (text.trim() !== "") sink.out.push({ kind: "message", ...base, role: "user", text, typed: true });
      return;
    }
    case "assistant":
      return assistant(m, text, key, at, sink);
    case "tool": {
      const shell = SHELL.exec(text);
      sink.out.push({
        kind: "tool_result",
        ...base,
        callId: str(m["tool_call_id"]) ?? "",
        output: shell ? printed(text.slice(shell[0].length), shell[1]) : text,
        isError: m["isError"] === true || FAILED.test(text) ? true : null,
        exitCode: shell ? Number(shell[2]) : null,
        meta: { tool_name: m["name"] ?? null },
      });
      return;
    }
    case "system":
      // The system prompt is rebuilt on every request; a saved one is the harness's words, not the conversation.
      return;
    default:
      unknownRecord(s, `message role '${role ?? ""}'`, m, at, null, sink);
  }
}

/** The reply's text and its calls, as the blocks the shared assistant rule reads. */
function assistant(m: Obj, text: string, key: string, at: SourceLine, sink: LineSink): void {
  const blocks: Obj[] = [{ type: "text", text }];
  for (const c of (arr(m["tool_calls"]) ?? []).filter(isObj)) {
    const fn = obj(c["function"]) ?? {};
    blocks.push({ type: "tool_use", id: c["id"], name: fn["name"], input: argumentsOf(fn["arguments"]) });
  }
  assistantBlocks(blocks, key, { line: at.line, ts: null }, {}, sink);
}

/** A command's output as it printed it: its stderr then its stdout, without Nanocoder's labels. */
function printed(rest: string, failure: string | undefined): string {
  const streams = STREAMS.exec(rest);
  const output = streams ? `${streams[1]}${streams[2]}` : rest;
  return failure ? `${failure}${output}` : output;
}

/** Arguments as saved: an object, or the JSON text the model sent. */
function argumentsOf(v: unknown): unknown {
  if (typeof v !== "string") return v ?? {};
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}
