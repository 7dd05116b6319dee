/**
 * Factory Droid: `~/.factory/sessions/<cwd with / as ->/<session>.jsonl`, one record per line: `session_start`
 * (`id`, `title`, `cwd`; `parent` on the child session a compaction starts), `message` (`message.role`, Anthropic
 * blocks: `text`, `tool_use`, `tool_result` with `is_error`), `agent_turn_outcome` and `compaction_state`
 * (`summaryText`). The first user turn carries `<system-reminder>` blocks before the prompt: harness text.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { arr, contentText, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { type SessionTotal, sessionTotal, totalRecord } from "./settings.ts";

export interface DroidState extends LineState {
  fallbackId: string;
  /** The session's token total from its settings file, as it stood when the file was read from its start. */
  total: SessionTotal | null;
  /** The time of the latest line read: when the session was last updated. */
  lastTs: string | null;
}

const HARNESS = /^\s*<(system-reminder|environment_details|system_notification)>/;
const QUIET = new Set(["agent_turn_outcome", "todo_state", "session_end"]);

export const droidReader: Reader<DroidState> = {
  provider: "droid",
  version: 3,
  context: (path) => [settingsPath(path)],
  detect(path, firstLine) {
    if (/[\\/]\.factory[\\/]sessions[\\/].*\.jsonl$/.test(path)) return true;
    if (path !== "") return false;
    return /^\s*\{\s*"type"\s*:\s*"session_start"/.test(firstLine) && /"hostId"\s*:|"owner"\s*:/.test(firstLine);
  },
  initialState(path, context) {
    const settings = context?.[settingsPath(path)];
    return {
      sessionId: null,
      unknown: {},
      fallbackId: basename(path, ".jsonl"),
      total: settings === undefined ? null : sessionTotal(settings),
      lastTs: null,
    };
  },
  parse(lines, state) {
    const out = parseLines(lines, cloneJson(state), readLine);
    const rec = out.state.sessionId ? totalRecord(out.state.sessionId, out.state.total, out.state.lastTs) : null;
    if (rec) out.records.push(rec);
    return out;
  },
};

/** `<session>.settings.json` beside `<session>.jsonl`. */
function settingsPath(path: string): string {
  return path.replace(/\.jsonl$/, ".settings.json");
}

function readLine(s: DroidState, o: Obj, line: SourceLine, sink: LineSink): void {
  const type = str(o["type"]) ?? "";
  const ts = str(o["timestamp"]) ?? null;
  if (ts !== null) s.lastTs = ts;
  const key = str(o["id"]) ?? `L${line.line}`;
  if (type === "session_start") return start(s, o, line, sink);
  if (s.sessionId === null) start(s, { id: s.fallbackId }, line, sink);
  switch (type) {
    case "message":
      return message(o, key, line, ts, sink);
    case "compaction_state":
      sink.out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key,
        pointKind: "compaction",
        text: str(o["summaryText"]) ?? "",
        meta: { removed_count: o["removedCount"] ?? null, summary_kind: o["summaryKind"] ?? null },
      });
      return;
    default:
      if (QUIET.has(type)) return;
      unknownRecord(s, type, o, line, ts, sink);
  }
}

function start(s: DroidState, o: Obj, line: SourceLine, sink: LineSink): void {
  const id = str(o["id"]) ?? s.fallbackId;
  const parent = str(o["parent"]) ?? null;
  const cwd = str(o["cwd"]);
  const title = str(o["title"]);
  s.sessionId ??= id;
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: null,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    ...(cwd ? { cwd } : {}),
    ...(title && title !== "New Session" ? { title } : {}),
    // A compaction writes the rest of the conversation to a child session naming the one it continues.
    ...(parent ? { parentSessionId: parent } : {}),
    meta: { droid_version: o["version"] ?? null, ...(parent ? { continues: parent } : {}) },
  });
}

function message(o: Obj, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const m = obj(o["message"]) ?? {};
  const role = str(m["role"]);
  const blocks = (arr(m["content"]) ?? [{ type: "text", text: str(m["content"]) ?? "" }]).filter(isObj);
  const parentKey = str(o["parentId"]) ?? null;
  const base = { line: line.line, ts, parentKey };
  if (role === "assistant") {
    const model = str(m["modelId"]);
    return assistantBlocks(blocks, key, base, model ? { model } : {}, sink);
  }
  blocks.forEach((b, i) => {
    const k = blocks.length === 1 ? key : `${key}#${i}`;
    if (b["type"] === "tool_result") {
      const output = contentText(b["content"]);
      const code = /\[Process exited with code (-?\d+)\]|exit code: (-?\d+)/.exec(output);
      sink.out.push({
        kind: "tool_result",
        ...base,
        key: k,
        callId: str(b["tool_use_id"]) ?? "",
        output: withoutBanners(output),
        isError: b["is_error"] === true ? true : b["is_error"] === false ? false : null,
        exitCode: code ? Number(code[1] ?? code[2]) : null,
      });
      return;
    }
    const text = b["type"] === "text" ? (str(b["text"]) ?? "") : contentText([b]);
    if (text.trim() === "") return;
    const typed = role === "user" && !HARNESS.test(text);
    sink.out.push({ kind: "message", ...base, key: k, role: role === "user" ? "user" : "system", text, typed });
  });
}

/** A command's output as it printed it: without Droid's `Error: Command failed` and `[Process exited …]` lines. */
function withoutBanners(text: string): string {
  return text
    .replace(/^Error: Command failed \(exit code: -?\d+\)\n/, "")
    .replace(/\n*\[Process exited with code -?\d+\]\s*$/, "\n");
}
