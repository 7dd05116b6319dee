/**
 * Windsurf's Cascade transcripts, `~/.windsurf/transcripts/<trajectory id>.jsonl`: one step a line,
 * `{"<type>": {…}, "status": "done", "type": "<type>"}` (keys sorted, as Go writes them). `user_input`
 * (`user_response`, the `rules_applied`), `planner_response` (`response`) and tool steps (steps.ts). The file is the
 * whole conversation, rewritten after each reply; it has no ids, times or model: the session is the file's name, its
 * folder the first command's `cwd`.
 */

import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { inputOf, localPath, outcomeOf, TOOL_STEPS } from "./steps.ts";

export interface WindsurfState extends LineState {
  fallbackId: string;
  cwd: string | null;
}

const PATH = /[\\/]\.windsurf[\\/]transcripts[\\/][^\\/]+\.jsonl$/;

export const windsurfReader: Reader<WindsurfState> = {
  provider: "windsurf",
  version: 1,
  detect(path, firstLine) {
    if (path !== "") return PATH.test(path);
    // A step: its type names a step cairn knows, and its fields are under that name.
    const o = recordOf(firstLine);
    const type = str(o?.["type"]);
    if (!o || type === undefined || typeof o["status"] !== "string" || !obj(o[type])) return false;
    return type === "user_input" || type === "planner_response" || TOOL_STEPS.has(type);
  },
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path, ".jsonl"), cwd: null };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: WindsurfState, o: Obj, line: SourceLine, sink: LineSink): void {
  if (s.sessionId === null) start(s, line, sink);
  const type = str(o["type"]) ?? "";
  const status = str(o["status"]) ?? "";
  const step = obj(o[type]);
  const key = `L${line.line}`;
  const base = { line: line.line, ts: null, key };
  if (type === "user_input" && step) {
    const rules = step["rules_applied"];
    sink.out.push({
      kind: "message",
      ...base,
      role: "user",
      text: str(step["user_response"]) ?? "",
      typed: true,
      ...(rules !== undefined ? { meta: { rules_applied: rules } } : {}),
    });
    return;
  }
  if (type === "planner_response" && step) {
    const text = str(step["response"]) ?? "";
    if (text !== "") sink.out.push({ kind: "message", ...base, role: "assistant", text, typed: false });
    return;
  }
  if (TOOL_STEPS.has(type) && step) return toolStep(s, type, status, step, line, sink);
  unknownRecord(s, type, o, line, null, sink);
}

function toolStep(s: WindsurfState, type: string, status: string, step: Obj, line: SourceLine, sink: LineSink): void {
  const key = `L${line.line}`;
  const base = { line: line.line, ts: null };
  const cwd = str(step["cwd"]) ?? (type === "find" ? localPath(step["search_directory"]) : undefined);
  if (s.cwd === null && cwd) {
    s.cwd = cwd;
    sink.out.push({ kind: "session", ...base, key: "session", sessionId: s.sessionId!, cwd });
  }
  sink.out.push({ kind: "tool_call", ...base, key, callId: key, name: type, input: inputOf(type, step) });
  const outcome = outcomeOf(step, status);
  if (outcome)
    sink.out.push({ kind: "tool_result", ...base, key: `${key}#result`, parentKey: key, callId: key, ...outcome });
}

function start(s: WindsurfState, line: SourceLine, sink: LineSink): void {
  s.sessionId = s.fallbackId;
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: null,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
  });
}
