/**
 * pi coding agent sessions: `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`, format v1 (linear, no ids),
 * v2 (tree by `id`/`parentId`) and v3 (`hookMessage` renamed `custom`). See research/transcript-formats §3.3.
 */
import { basename } from "node:path";
import { arr, contentText, isoTime, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { RawRecord, Reader, SourceLine } from "../types.ts";

export interface PiState extends LineState {
  version: number;
  fileStem: string;
  /** v1 has no ids: each entry's key is its line, and its tree parent is the entry before it that became a record. */
  lastKey: string | null;
  seenModel: string | null;
  /**
   * Entries that became no event (model and thinking-level changes, session names, extension state) → the tree
   * parent that stands for them, so a child of such an entry points at an event that exists (null: a root).
   */
  alias: Record<string, string | null>;
}

const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** Custom entry types whose data is a decision record (notebook pages written by cairn or pi-agenticoding). */
const NOTEBOOK_TYPES = /notebook/i;
/** Custom messages that hand work over to a fresh session. */
const HANDOFF_TYPES = /handoff|resume-brief/i;
/** Sequence step boundaries written by cairn's pi extension. */
const SEQUENCE_STEP_TYPES = /sequence-step/i;

const QUIET_TYPES = new Set(["thinking_level_change", "model_change", "session_info"]);

export const piReader: Reader<PiState> = {
  provider: "pi",
  version: 2,
  detect(path, firstLine) {
    if (/[\\/]\.(pi|omp)[\\/]agent[\\/]sessions[\\/]/.test(path)) return true;
    // The session header: its type, its id and where it ran.
    const o = recordOf(firstLine);
    if (o) return o["type"] === "session" && typeof o["id"] === "string" && "cwd" in o;
    return /^\s*\{\s*"type"\s*:\s*"session"\s*,/.test(firstLine);
  },
  initialState(path) {
    return {
      sessionId: null,
      version: 1,
      fileStem: basename(path).replace(/\.jsonl$/, ""),
      lastKey: null,
      seenModel: null,
      alias: {},
      unknown: {},
    };
  },
  parse(lines, state) {
    // The maps are copied, not shared with the caller's state (which may be kept); older saved states lack them.
    const s: PiState = { ...state, alias: { ...state.alias }, unknown: { ...state.unknown } };
    return parseLines(lines, s, (st, o, line, sink) => readEntry(st, o, line, sink));
  },
};

function readHeader(s: PiState, o: Obj, line: SourceLine, out: RawRecord[]): void {
  const version = typeof o["version"] === "number" ? o["version"] : 1;
  s.version = version;
  const id = str(o["id"]) ?? UUID_IN_NAME.exec(s.fileStem)?.[1] ?? s.fileStem;
  s.sessionId = id;
  const parentPath = str(o["parentSession"]);
  const parentId = parentPath ? (UUID_IN_NAME.exec(basename(parentPath))?.[1] ?? null) : null;
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

function ensureSession(s: PiState, line: SourceLine, out: RawRecord[]): string {
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

/** One entry of a pi session, whatever holds it (a line of pi's file, a row of OpenClaw's database). */
export function readEntry(s: PiState, o: Obj, line: SourceLine, sink: LineSink): void {
  const { out, problems } = sink;
  const type = str(o["type"]);
  if (type === "session") {
    if (s.sessionId === null) readHeader(s, o, line, out);
    else problems.push(problem(line, "a second session header in one file"));
    return;
  }
  const sessionId = ensureSession(s, line, out);
  const id = str(o["id"]);
  const key = id ?? `L${line.line}`;
  const parentKey = treeParent(s, id ? (str(o["parentId"]) ?? null) : s.lastKey);
  const before = out.length;
  readTreeEntry(s, o, type, line, sessionId, key, parentKey, sink);
  let produced = false;
  for (let i = before; i < out.length && !produced; i++) produced = out[i]!.kind !== "session";
  if (produced) s.lastKey = key;
  else if (id) s.alias[id] = parentKey;
}

/** The tree parent a child should point at: an entry that became no event is replaced by its own parent. */
function treeParent(s: PiState, parent: string | null): string | null {
  if (parent === null) return null;
  const stand = s.alias[parent];
  // Almost every parent is an event of its own: a plain miss is the fast path.
  return stand === undefined || !Object.hasOwn(s.alias, parent) ? parent : stand;
}

function readTreeEntry(
  s: PiState,
  o: Obj,
  type: string | undefined,
  line: SourceLine,
  sessionId: string,
  key: string,
  parentKey: string | null,
  sink: LineSink,
): void {
  const out = sink.out;
  const ts = isoTime(o["timestamp"]);
  switch (type) {
    case "message":
      return readMessage(s, obj(o["message"]) ?? {}, line, ts, key, parentKey, sink);
    case "compaction": {
      const details = obj(o["details"]);
      out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key,
        parentKey,
        pointKind: "compaction",
        text: str(o["summary"]) ?? "",
        meta: {
          tokens_before: o["tokensBefore"] ?? null,
          first_kept: o["firstKeptEntryId"] ?? o["firstKeptEntryIndex"] ?? null,
          ...(details
            ? { read_files: details["readFiles"] ?? [], modified_files: details["modifiedFiles"] ?? [] }
            : {}),
          ...(o["fromHook"] === true ? { from_hook: true } : {}),
        },
      });
      return;
    }
    case "branch_summary":
      out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key,
        parentKey,
        pointKind: "branch_summary",
        text: str(o["summary"]) ?? "",
        meta: { from_id: o["fromId"] ?? null },
      });
      return;
    case "label": {
      const label = str(o["label"]);
      if (label)
        out.push({
          kind: "resume_point",
          line: line.line,
          ts,
          key,
          parentKey: treeParent(s, str(o["targetId"]) ?? null) ?? parentKey,
          pointKind: "label",
          text: label,
          meta: { target_id: o["targetId"] ?? null },
        });
      return;
    }
    case "session_info": {
      const name = str(o["name"]);
      if (name) out.push({ kind: "session", line: line.line, ts, key: "session", sessionId, title: name });
      return;
    }
    case "model_change": {
      const model = str(o["modelId"]);
      if (model && model !== s.seenModel) {
        s.seenModel = model;
        out.push({ kind: "session", line: line.line, ts, key: "session", sessionId, model });
      }
      return;
    }
    case "custom":
      return readCustom(o, line, ts, key, parentKey, out);
    case "custom_message": {
      const customType = str(o["customType"]) ?? "custom";
      const text = contentText(o["content"]);
      if (HANDOFF_TYPES.test(customType)) {
        out.push({
          kind: "resume_point",
          line: line.line,
          ts,
          key,
          parentKey,
          pointKind: "handoff",
          text,
          meta: { custom_type: customType },
        });
      } else {
        out.push({
          kind: "message",
          line: line.line,
          ts,
          key,
          parentKey,
          role: "system",
          text,
          typed: false,
          meta: { custom_type: customType, display: o["display"] ?? null },
        });
      }
      return;
    }
    default:
      if (type !== undefined && QUIET_TYPES.has(type)) return;
      unknownRecord(s, type ?? "", o, line, ts, sink);
  }
}

function readCustom(
  o: Obj,
  line: SourceLine,
  ts: string | null,
  key: string,
  parentKey: string | null,
  out: RawRecord[],
): void {
  const customType = str(o["customType"]) ?? "";
  const data = obj(o["data"]);
  if (NOTEBOOK_TYPES.test(customType) && data) {
    const title = str(data["title"]) ?? str(data["name"]) ?? str(data["page"]) ?? "";
    const body = str(data["content"]) ?? str(data["text"]) ?? str(data["body"]) ?? "";
    if (title || body) {
      out.push({
        kind: "message",
        line: line.line,
        ts,
        key,
        parentKey,
        role: "system",
        text: title ? `${title}\n${body}` : body,
        typed: false,
        meta: { custom_type: customType, notebook: true },
      });
    }
    return;
  }
  if (SEQUENCE_STEP_TYPES.test(customType) && data) {
    const step = str(data["step"]) ?? str(data["raw"]) ?? "";
    out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key,
      parentKey,
      pointKind: "sequence_step",
      text: step,
      meta: { custom_type: customType, ...data },
    });
  }
  // Other extension state is not part of the conversation; it stays in the transcript.
}

function readMessage(
  s: PiState,
  m: Obj,
  line: SourceLine,
  ts: string | null,
  key: string,
  parentKey: string | null,
  sink: LineSink,
): void {
  const out = sink.out;
  const role = str(m["role"]);
  const at = ts ?? isoTime(m["timestamp"]);
  switch (role) {
    case "system": {
      // 0.87 records the system prompt it sent (`sections`): the harness's words, kept as a note on the session.
      const sections = obj(m["sections"]);
      const chars = sections
        ? Object.values(sections).reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0)
        : contentText(m["content"]).length;
      if (s.sessionId !== null)
        out.push({
          kind: "session",
          line: line.line,
          ts: at,
          key: "session",
          sessionId: s.sessionId,
          meta: { system_prompt: { chars, sections: sections ? Object.keys(sections) : [] } },
        });
      return;
    }
    case "user": {
      const text = contentText(m["content"]);
      out.push({
        kind: "message",
        line: line.line,
        ts: at,
        key,
        parentKey,
        role: "user",
        text,
        typed: text.trim() !== "",
      });
      return;
    }
    case "assistant":
      return readAssistant(s, m, line, at, key, parentKey, out);
    case "toolResult": {
      const details = obj(m["details"]);
      const output = contentText(m["content"]);
      // pi's bash tool appends the exit status to failing output.
      const exit = /(?:^|\n)Command exited with code (\d+)\s*$/.exec(output.slice(-200));
      out.push({
        kind: "tool_result",
        line: line.line,
        ts: at,
        key,
        parentKey,
        callId: str(m["toolCallId"]) ?? "",
        output,
        isError: m["isError"] === true ? true : m["isError"] === false ? false : null,
        exitCode: exit ? Number(exit[1]) : null,
        meta: {
          tool_name: m["toolName"] ?? null,
          ...(details && str(details["diff"]) ? { diff: details["diff"] } : {}),
        },
      });
      return;
    }
    case "bashExecution": {
      const command = str(m["command"]) ?? "";
      const exitCode = typeof m["exitCode"] === "number" ? m["exitCode"] : null;
      const callId = `bash:${key}`;
      out.push({
        kind: "tool_call",
        line: line.line,
        ts: at,
        key,
        parentKey,
        callId,
        name: "bash",
        input: { command },
        meta: { user_initiated: true },
      });
      out.push({
        kind: "tool_result",
        line: line.line,
        ts: at,
        key: `${key}#out`,
        callId,
        output: str(m["output"]) ?? "",
        isError: m["cancelled"] === true ? true : null,
        exitCode,
        meta: {
          user_initiated: true,
          ...(m["truncated"] === true ? { truncated: true } : {}),
          ...(m["cancelled"] === true ? { cancelled: true } : {}),
        },
      });
      return;
    }
    case "custom":
    case "hookMessage":
      out.push({
        kind: "message",
        line: line.line,
        ts: at,
        key,
        parentKey,
        role: "system",
        text: contentText(m["content"]),
        typed: false,
        meta: { custom_type: m["customType"] ?? null },
      });
      return;
    case "branchSummary":
      out.push({
        kind: "resume_point",
        line: line.line,
        ts: at,
        key,
        parentKey,
        pointKind: "branch_summary",
        text: str(m["summary"]) ?? "",
      });
      return;
    case "compactionSummary":
      out.push({
        kind: "resume_point",
        line: line.line,
        ts: at,
        key,
        parentKey,
        pointKind: "compaction",
        text: str(m["summary"]) ?? "",
        meta: { tokens_before: m["tokensBefore"] ?? null },
      });
      return;
    default:
      unknownRecord(s, `message/${role ?? ""}`, m, line, at, sink);
  }
}

function readAssistant(
  s: PiState,
  m: Obj,
  line: SourceLine,
  ts: string | null,
  key: string,
  parentKey: string | null,
  out: RawRecord[],
): void {
  const texts: string[] = [];
  const thinking: string[] = [];
  const calls: RawRecord[] = [];
  for (const b of arr(m["content"]) ?? []) {
    const block = obj(b);
    if (!block) continue;
    const type = str(block["type"]);
    if (type === "text") texts.push(str(block["text"]) ?? "");
    else if (type === "thinking") thinking.push(str(block["thinking"]) ?? "");
    else if (type === "toolCall") {
      const callId = str(block["id"]) ?? `${key}#${calls.length}`;
      calls.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key: `${key}/${callId}`,
        callId,
        name: str(block["name"]) ?? "unknown",
        input: block["arguments"] ?? {},
        messageKey: key,
      });
    }
  }
  const model = str(m["model"]);
  const stop = str(m["stopReason"]);
  const error = str(m["errorMessage"]);
  const meta: Record<string, unknown> = {};
  if (model) meta["model"] = model;
  if (stop) meta["stop_reason"] = stop;
  // An aborted or failed turn says why in `errorMessage`; it belongs to the message (the topology marks its status).
  if ((stop === "error" || stop === "aborted") && error) meta["error_message"] = error;
  if (thinking.length > 0) meta["thinking"] = thinking.join("\n\n");
  const usage = obj(m["usage"]);
  if (usage) meta["usage"] = usage;
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    parentKey,
    role: "assistant",
    text: texts.join("\n\n"),
    typed: false,
    meta,
  });
  if (stop === "error") {
    // A failed turn is also an error of its own, hung off the message (and placed right after it).
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: `${key}#stop`,
      aboutKey: key,
      level: "error",
      text: error ?? "assistant turn failed",
      meta: { stop_reason: stop },
    });
  }
  out.push(...calls);
  if (model && model !== s.seenModel && s.sessionId) {
    s.seenModel = model;
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, model });
  }
}
