/**
 * pi coding agent sessions: `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`, format v1 (linear, no ids),
 * v2 (tree by `id`/`parentId`) and v3 (`hookMessage` renamed `custom`). See research/transcript-formats §3.3.
 * This file detects a session, places each entry in the tree and sends it to the reader of its type. The agents
 * built on pi that write its entries (OpenClaw, Oh My Pi) read them with `readEntry`, from their own folders.
 */
import { basename } from "node:path";
import { isoTime, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { readCustom, readCustomMessage } from "./custom.ts";
import { readMessage } from "./messages.ts";
import { ensureSession, readHeader, readModelChange, readSessionInfo } from "./session.ts";
import type { EntryAt, PiState } from "./state.ts";
import { readBranchSummary, readCompaction, readLabel } from "./summaries.ts";
import { treeParent } from "./tree.ts";

export type { PiState } from "./state.ts";

const QUIET_TYPES = new Set(["thinking_level_change", "model_change", "session_info"]);

export const piReader: Reader<PiState> = {
  provider: "pi",
  version: 4,
  detect(path, firstLine) {
    if (/[\\/]\.pi[\\/]agent[\\/]sessions[\\/]/.test(path)) return true;
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
    return parseLines(lines, s, readEntry);
  },
};

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
  readTreeEntry(s, o, type, sessionId, { line, ts: isoTime(o["timestamp"]), key, parentKey }, sink);
  let produced = false;
  for (let i = before; i < out.length && !produced; i++) produced = out[i]!.kind !== "session";
  if (produced) s.lastKey = key;
  else if (id) s.alias[id] = parentKey;
}

function readTreeEntry(
  s: PiState,
  o: Obj,
  type: string | undefined,
  sessionId: string,
  at: EntryAt,
  sink: LineSink,
): void {
  const out = sink.out;
  switch (type) {
    case "message":
      return readMessage(s, obj(o["message"]) ?? {}, at, sink);
    case "compaction":
      return readCompaction(o, at, out);
    case "branch_summary":
      return readBranchSummary(o, at, out);
    case "label":
      return readLabel(s, o, at, out);
    case "session_info":
      return readSessionInfo(o, sessionId, at.line, at.ts, out);
    case "model_change":
      return readModelChange(s, o, sessionId, at.line, at.ts, out);
    case "custom":
      return readCustom(o, at, out);
    case "custom_message":
      return readCustomMessage(o, at, out);
    default:
      if (type !== undefined && QUIET_TYPES.has(type)) return;
      unknownRecord(s, type ?? "", o, at.line, at.ts, sink);
  }
}
