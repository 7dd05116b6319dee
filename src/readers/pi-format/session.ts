/**
 * The session a pi file is: its header line (id, folder, parent session of a fork, model), or the file name when
 * the header is missing; and the entries that change it later (`session_info` names it, `model_change`, the
 * system prompt 0.87 records).
 */
import { basename } from "node:path";
import { contentText, isoTime, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import type { PiState } from "./state.ts";

const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** The id of the session a pi file holds, read off its name (`<time>_<uuid>.jsonl`), or null. */
export function sessionIdOfPath(path: string): string | null {
  return UUID_IN_NAME.exec(basename(path))?.[1] ?? null;
}

export function readHeader(s: PiState, o: Obj, line: SourceLine, out: RawRecord[]): void {
  const version = typeof o["version"] === "number" ? o["version"] : 1;
  s.version = version;
  const id = str(o["id"]) ?? UUID_IN_NAME.exec(s.fileStem)?.[1] ?? s.fileStem;
  s.sessionId = id;
  const parentPath = str(o["parentSession"]);
  const parentId = parentPath ? sessionIdOfPath(parentPath) : null;
  const model = str(o["modelId"]);
  if (model) s.seenModel = model;
  out.push({
    kind: "session",
    line: line.line,
    ts: isoTime(o["timestamp"]),
    key: "session",
    sessionId: id,
    sessionKind: parentPath ? "fork" : "main",
    cwd: str(o["cwd"]) ?? null,
    parentSessionId: parentId,
    startedAt: isoTime(o["timestamp"]),
    model: model ?? null,
    meta: {
      format_version: version,
      ...(parentPath ? { parent_session_file: parentPath } : {}),
      ...(str(o["provider"]) ? { model_provider: o["provider"] } : {}),
    },
  });
}

/** The session id, opening the session from the file name when no header came first. */
export function ensureSession(s: PiState, line: SourceLine, out: RawRecord[]): string {
  if (s.sessionId === null) {
    s.sessionId = UUID_IN_NAME.exec(s.fileStem)?.[1] ?? s.fileStem;
    out.push({
      kind: "session",
      line: line.line,
      ts: null,
      key: "session",
      sessionId: s.sessionId,
      sessionKind: "main",
      meta: { missing_header: true },
    });
  }
  return s.sessionId;
}

export function readSessionInfo(
  o: Obj,
  sessionId: string,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const name = str(o["name"]);
  if (name) out.push({ kind: "session", line: line.line, ts, key: "session", sessionId, title: name });
}

export function readModelChange(
  s: PiState,
  o: Obj,
  sessionId: string,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const model = str(o["modelId"]);
  if (model && model !== s.seenModel) {
    s.seenModel = model;
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId, model });
  }
}

/** 0.87 records the system prompt it sent (`sections`): the harness's words, kept as a note on the session. */
export function readSystemPrompt(s: PiState, m: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const sections = obj(m["sections"]);
  const chars = sections
    ? Object.values(sections).reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0)
    : contentText(m["content"]).length;
  if (s.sessionId !== null)
    out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      meta: { system_prompt: { chars, sections: sections ? Object.keys(sections) : [] } },
    });
}
