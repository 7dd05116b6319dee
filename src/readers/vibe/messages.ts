/**
 * Mistral Vibe 2 (up to 2.24): `logs/session/session_<time>_<id>/messages.jsonl`, one chat message per line
 * (`role`, `content`, `injected`, `message_id`; an assistant's `tool_calls`; a tool's `tool_call_id`, `name` and,
 * when the tool succeeded, `tool_result.output`, else `<tool_error>…` as its content), with `meta.json` beside it
 * (the session's id, parent, folder, title). A compaction is an injected user message with
 * `context_boundary: "compaction"` quoting the earlier prompts and the summary. A subagent's session is
 * `agents/<name>_<time>_<id>/` inside its parent's folder, its first message the task with the harness's note
 * before it.
 */

import { dirname, join } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";

export interface VibeMessagesState extends LineState {
  /** What `meta.json` says of the session, kept until the first line is read. */
  meta: Obj | null;
  fallbackId: string;
  sub: boolean;
}

const FILE = /[\\/]session_[^\\/]+[\\/](?:agents[\\/][^\\/]+[\\/])?messages\.jsonl$/;
const ROLES = new Set(["user", "assistant", "tool", "system"]);
const SUMMARY = /<compaction_summary>\n?([\s\S]*?)\n?<\/compaction_summary>/;
const ERROR = /^<tool_error>([\s\S]*?)<\/tool_error>\s*$/;
/** How its `bash` tool reports a command that exited other than 0, before what the command printed. */
const FAILED_COMMAND =
  /^bash failed: Command failed: [^\n]*\nReturn code: -?\d+\n(?:Stdout: ([\s\S]*?)\n)?(?:Stderr: ([\s\S]*))?$/;
/** The note a subagent's task starts with (its scratchpad folder), before the task itself. */
const SCRATCHPAD = /^Scratchpad directory: [^\n]*\nYou can read and write files here without permission prompts\.\n\n/;

export const vibeMessagesReader: Reader<VibeMessagesState> = {
  provider: "vibe",
  id: "vibe-messages",
  version: 1,
  detect(path, firstLine) {
    const o = recordOf(firstLine);
    if (o) return ROLES.has(str(o["role"]) ?? "") && typeof o["injected"] === "boolean" && "message_id" in o;
    return path !== "" && firstLine === "" && FILE.test(path);
  },
  context: (path) => [join(dirname(path), "meta.json")],
  initialState(path, context = {}) {
    let meta: Obj | null = null;
    try {
      const v: unknown = JSON.parse(context[join(dirname(path), "meta.json")] ?? "");
      meta = isObj(v) ? v : null;
    } catch {
      meta = null;
    }
    const folder = dirname(path).replace(/^.*[\\/]/, "");
    return {
      sessionId: null,
      unknown: {},
      meta,
      fallbackId: folder.replace(/^.*_/, ""),
      sub: /[\\/]agents[\\/][^\\/]+[\\/]messages\.jsonl$/.test(path),
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: VibeMessagesState, o: Obj, line: SourceLine, sink: LineSink): void {
  if (s.sessionId === null) session(s, line, sink);
  const role = str(o["role"]) ?? "";
  const key = str(o["message_id"]) ?? str(o["tool_call_id"]) ?? `L${line.line}`;
  const base = { line: line.line, ts: null };
  const content = typeof o["content"] === "string" ? o["content"] : text(o["content"]);
  if (role === "user") {
    if (o["context_boundary"] === "compaction") {
      const summary = SUMMARY.exec(content)?.[1]?.trim();
      sink.out.push({ kind: "resume_point", ...base, key, pointKind: "compaction", text: summary ?? content });
      return;
    }
    const injected = o["injected"] === true;
    const said = s.sub ? content.replace(SCRATCHPAD, "") : content;
    if (said.trim() !== "")
      sink.out.push({ kind: "message", ...base, key, role: "user", text: said, typed: !injected });
    return;
  }
  if (role === "assistant") {
    const calls = (arr(o["tool_calls"]) ?? []).filter(isObj);
    const reasoning = str(o["reasoning_content"]);
    if (content.trim() !== "" || calls.length === 0)
      sink.out.push({
        kind: "message",
        ...base,
        key,
        role: "assistant",
        text: content,
        typed: false,
        ...(reasoning ? { meta: { thinking: reasoning } } : {}),
      });
    calls.forEach((c, i) => {
      const fn = obj(c["function"]) ?? {};
      const id = str(c["id"]) ?? `${key}#${i}`;
      let input: unknown = str(fn["arguments"]) ?? "";
      try {
        input = JSON.parse(input as string);
      } catch {
        // arguments that are not JSON are kept as written
      }
      sink.out.push({
        kind: "tool_call",
        ...base,
        key: id,
        callId: id,
        name: str(fn["name"]) ?? "",
        input,
        messageKey: key,
      });
    });
    return;
  }
  if (role === "tool") return toolResult(o, content, key, base, sink);
  if (role === "system") {
    sink.out.push({ kind: "message", ...base, key, role: "system", text: content, typed: false });
    return;
  }
  unknownRecord(s, role, o, line, null, sink);
}

function session(s: VibeMessagesState, line: SourceLine, sink: LineSink): void {
  const meta = s.meta ?? {};
  s.sessionId = str(meta["session_id"]) ?? s.fallbackId;
  const parent = str(meta["parent_session_id"]) ?? null;
  const cwd = str(obj(meta["environment"])?.["working_directory"]);
  const title = str(meta["title"]);
  const branch = str(meta["git_branch"]);
  const active = str(obj(meta["config"])?.["active_model"]);
  const model = active ? str(obj(obj(obj(meta["config"])?.["models"])?.[active])?.["name"]) : undefined;
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: str(meta["start_time"]) ?? null,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: parent ? "subagent" : "main",
    ...(parent ? { parentSessionId: parent } : {}),
    ...(cwd ? { cwd } : {}),
    ...(title ? { title } : {}),
    ...(branch ? { gitBranch: branch } : {}),
    ...(model ? { model } : {}),
    startedAt: str(meta["start_time"]) ?? null,
    meta: { vibe_store_format: "messages.jsonl" },
  });
  // meta.json is read once, when the file is first read: what a saved state carries is the session's id.
  s.meta = null;
}

function text(content: unknown): string {
  return (arr(content) ?? [])
    .filter(isObj)
    .map((b) => str(b["text"]) ?? "")
    .join("\n");
}

function toolResult(o: Obj, content: string, key: string, base: { line: number; ts: null }, sink: LineSink): void {
  const callId = str(o["tool_call_id"]) ?? "";
  const result = obj(o["tool_result"]);
  const output = obj(result?.["output"]) ?? {};
  const error = ERROR.exec(content);
  const code =
    typeof output["returncode"] === "number"
      ? output["returncode"]
      : error
        ? Number(/\nReturn code: (-?\d+)/.exec(error[1]!)?.[1] ?? Number.NaN)
        : Number.NaN;
  const command = typeof output["returncode"] === "number";
  sink.out.push({
    kind: "tool_result",
    ...base,
    key: `${callId || key}#result`,
    callId,
    output: error
      ? commandFailure(error[1]!)
      : command
        ? [str(output["stdout"]) ?? "", str(output["stderr"]) ?? ""].filter((t) => t !== "").join("\n")
        : (str(output["content"]) ?? content),
    isError: error !== null || result?.["cancelled"] === true,
    exitCode: Number.isFinite(code) ? code : null,
  });
}

/** A failed command's output as it printed it, without the tool's report around it; other errors as they are. */
function commandFailure(text: string): string {
  const m = FAILED_COMMAND.exec(text);
  return m ? [m[1] ?? "", m[2] ?? ""].filter((t) => t !== "").join("\n") : text;
}
