/**
 * Open Interpreter: a conversation is one JSON array of its messages (`json.dump(messages)`, one line), rewritten
 * whole after each prompt is answered, named `<first words>__<Month>_<DD>_<YYYY>_<HH>-<MM>-<SS>.json` from the first
 * prompt and the local time it was saved first. Each message is `{role, type, format?, content}`: the person's
 * `message`s (and attached `image`/`file`s), the assistant's `message`s and `code` (its one tool, `execute`, with
 * the language in `format`), and the `computer`'s output of that code (`console`/`output` text, `image`s, HTML or
 * JavaScript `code` to show). The document holds no id, time, folder, model or version, and no exit status: a
 * result is failed only when Open Interpreter itself says it ran nothing (a language it lacks, an empty block) or
 * its own traceback replaces the output.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { isObj, type Obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";

export interface InterpreterState extends LineState {
  fallbackId: string;
}

/** The document as `json.dump` writes it: a list whose first message names its role, then its type. */
const HEAD = /^\s*\[\s*\{\s*"role"\s*:\s*"(?:user|assistant|computer|system)"\s*,\s*"type"\s*:\s*"[a-z_]+"/;
const CONVERSATION = /[\\/]open-interpreter[\\/]conversations[\\/][^\\/]+\.json$/;
/** The save time in the file name; local time with no zone, read as if UTC so the index does not depend on where it is read. */
const SAVED = /__([A-Z][a-z]+)_(\d{2})_(\d{4})_(\d{2})-(\d{2})-(\d{2})\.json$/;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** Output Open Interpreter writes in place of the code's when it ran nothing or failed itself. */
const OWN_FAILURE =
  /^(`[^`]*` disabled or not supported\.|Code block was empty\.|Traceback \(most recent call last\):)/;
/** The languages it runs as a command line (its Shell's aliases, and PowerShell). */
const SHELLS = new Set(["shell", "bash", "sh", "zsh", "batch", "bat", "powershell"]);

export const interpreterReader: Reader<InterpreterState> = {
  provider: "interpreter",
  version: 1,
  wholeFile: (path) => path.endsWith(".json"),
  detect(path, head) {
    if (HEAD.test(head)) return true;
    return path !== "" && head === "" && CONVERSATION.test(path);
  },
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path, ".json") };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, readDocument);
  },
};

export function savedAt(name: string): string | null {
  const m = SAVED.exec(name);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!);
  if (month === -1) return null;
  const t = Date.UTC(Number(m[3]), month, Number(m[2]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** What one reading of the document has seen so far: the call waiting for its output, and that output. */
interface Pass {
  s: InterpreterState;
  at: SourceLine;
  ts: string | null;
  sink: LineSink;
  call: string | null;
  output: string[];
  failed: boolean;
}

function readDocument(s: InterpreterState, line: SourceLine, sink: LineSink): boolean {
  const parsed = wholeDocument(line, sink);
  if (!parsed) return true;
  const at = { text: "", line: line.line };
  if (!Array.isArray(parsed.doc)) {
    sink.problems.push(problem(at, "not an Open Interpreter conversation"));
    return true;
  }
  s.sessionId = s.fallbackId;
  const ts = savedAt(`${s.fallbackId}.json`);
  sink.out.push({
    kind: "session",
    line: at.line,
    ts,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    startedAt: ts,
  });
  const pass: Pass = { s, at, ts, sink, call: null, output: [], failed: false };
  parsed.doc.forEach((m, i) => {
    if (isObj(m)) message(pass, m, `m${i}`);
    else sink.problems.push(problem(at, `message ${i} is not an object`));
  });
  flush(pass);
  return true;
}

function message(p: Pass, m: Obj, key: string): void {
  const role = str(m["role"]) ?? "";
  const type = str(m["type"]) ?? "";
  const content = m["content"];
  if (role === "computer") return output(p, m, type, key);
  flush(p);
  const base = { line: p.at.line, ts: p.ts, key };
  if (type === "message" && (role === "user" || role === "assistant" || role === "system")) {
    const text = typeof content === "string" ? content : "";
    p.sink.out.push({ kind: "message", ...base, role, text, typed: role === "user" });
    return;
  }
  if (role === "assistant" && type === "code") {
    const language = str(m["format"]) ?? "";
    const code = typeof content === "string" ? content : "";
    const input = SHELLS.has(language.toLowerCase()) ? { language, code, command: code } : { language, code };
    p.sink.out.push({ kind: "tool_call", ...base, callId: key, name: "execute", input });
    p.call = key;
    return;
  }
  if ((type === "image" || type === "file") && (role === "user" || role === "assistant")) {
    // An attachment: a path the person gave, or the picture itself (base64), which is not kept.
    const format = str(m["format"]) ?? "";
    const said = format === "path" && typeof content === "string" ? `[${type}: ${content}]` : `[${type}]`;
    p.sink.out.push({ kind: "message", ...base, role, text: said, typed: false, meta: { attachment: format } });
    return;
  }
  unknownRecord(p.s, `${role}/${type}`, m, p.at, p.ts, p.sink);
}

/** The computer's messages after a call are its output, however many (text, then an image or HTML it showed). */
function output(p: Pass, m: Obj, type: string, key: string): void {
  const content = m["content"];
  const format = str(m["format"]) ?? "";
  if (type === "console" && typeof content === "string") {
    if (p.output.length === 0 && OWN_FAILURE.test(content)) p.failed = true;
    p.output.push(content);
  } else if (type === "image" || type === "code") {
    p.output.push(`[${type === "image" ? "image" : format} output]`);
  } else {
    unknownRecord(p.s, `computer/${type}`, m, p.at, p.ts, p.sink);
    return;
  }
  p.call ??= `${key}#orphan`;
}

/** The call's result, once its output has come (a call cut off before any has none). */
function flush(p: Pass): void {
  if (p.call === null) return;
  if (p.output.length === 0) {
    p.call = null;
    return;
  }
  p.sink.out.push({
    kind: "tool_result",
    line: p.at.line,
    ts: p.ts,
    key: `${p.call}#result`,
    callId: p.call,
    output: p.output.join("\n"),
    isError: p.failed ? true : null,
    exitCode: null,
  });
  p.call = null;
  p.output = [];
  p.failed = false;
}
