/**
 * Claude Code transcripts: `~/.claude/projects/<slug>/<sessionId>.jsonl`, flat `agent-<id>.jsonl` sidechain files
 * beside them (2.0.x), and `<sessionId>/subagents/agent-<id>.jsonl` (2.1.x). See research/transcript-formats §3.1.
 * This file detects a transcript and sends each line to the reader of its type.
 */
import { basename } from "node:path";
import { isObj, type Obj, recordOf, str } from "../json.ts";
import { type LineSink, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { readAssistant } from "./assistant.ts";
import { readQueued } from "./queue.ts";
import { readSummary, readTitle, sessionUpdate } from "./session.ts";
import type { ClaudeState } from "./state.ts";
import { subagentOfPath } from "./subagent.ts";
import { readSystem } from "./system.ts";
import { quietAlias } from "./tree.ts";
import { readUser } from "./user.ts";

export type { ClaudeState } from "./state.ts";

/** Line types that are known and deliberately not events (their facts, if any, go into session metadata). */
const QUIET_TYPES = new Set([
  "file-history-snapshot",
  "progress",
  "permission-mode",
  "mode",
  "agent-name",
  "last-prompt",
  "pr-link",
  "frame-link",
  "worktree-state",
  "relocated",
  "bridge-session",
  "atis-latch",
  "started",
  "result",
  "attachment",
  // 2.1.x bookkeeping: the API requests it made (their system prompt and tools), tool use tallies, costs.
  "api-request",
  "api-request-shape",
  "api-request-blob",
  "tools-used",
  "cost-state",
]);

/**
 * A Claude Code record by its shape: a `type`, and the keys of the conversation tree (`parentUuid`, or a `uuid` in a
 * `sessionId`), or one of the bookkeeping records only Claude Code writes. One key alone is not enough: Qwen Code's
 * usage log has a `sessionId` and is no transcript.
 */
function isClaudeRecord(o: Obj): boolean {
  const type = o["type"];
  if (typeof type !== "string") return false;
  if (type === "summary") return typeof o["leafUuid"] === "string" || typeof o["summary"] === "string";
  if (type === "file-history-snapshot") return isObj(o["snapshot"]);
  if (type === "queue-operation") return typeof o["operation"] === "string" && typeof o["sessionId"] === "string";
  return "parentUuid" in o || (typeof o["uuid"] === "string" && typeof o["sessionId"] === "string");
}

export const claudeReader: Reader<ClaudeState> = {
  provider: "claude",
  version: 3,
  general: true,
  detect(path, firstLine) {
    if (/[\\/](\.claude|claude)[\\/]projects[\\/].*\.jsonl$/.test(path)) return true;
    const record = recordOf(firstLine);
    if (record) return isClaudeRecord(record);
    // A first line cut short at the detection limit: its type and a key of Claude's tree.
    return (
      /"type"\s*:\s*"(user|assistant|system|summary|file-history-snapshot|queue-operation)"/.test(firstLine) &&
      /"(parentUuid|leafUuid|uuid)"\s*:/.test(firstLine)
    );
  },
  initialState(path) {
    const { subagent, parentFromPath } = subagentOfPath(path);
    return {
      sessionId: null,
      subagent,
      fileStem: basename(path).replace(/\.jsonl$/, ""),
      parentFromPath,
      summaries: [],
      msg: null,
      recent: [],
      alias: {},
      compact: null,
      pendingBash: null,
      pendingSlash: null,
      queued: [],
      seen: { cwd: null, branch: null, model: null, version: null, title: null },
      warmupOnly: null,
      unknown: {},
    };
  },
  parse(lines, state) {
    const s: ClaudeState = structuredClone(state);
    // States saved before these fields existed lack them.
    s.summaries ??= [];
    s.pendingSlash ??= null;
    return parseLines(lines, s, readLine);
  },
};

function readLine(s: ClaudeState, o: Obj, line: SourceLine, sink: LineSink): void {
  const out = sink.out;
  const type = str(o["type"]);
  const ts = str(o["timestamp"]) ?? null;
  if (type === "summary") return readSummary(s, o, line, ts, out);
  if (type === "custom-title" || type === "ai-title") return readTitle(s, o, line, ts, out);
  if (type === "queue-operation") return readQueued(s, o, line, ts, out);
  if (type === "user") return readUser(s, o, line, ts, out);
  if (type === "assistant") return readAssistant(s, o, line, ts, out);
  if (type === "system") return readSystem(s, o, line, ts, out);
  sessionUpdate(s, o, line, ts, out);
  // Unknown or missing type: reported once per type, its text kept in the session's meta.
  if (type === undefined || !QUIET_TYPES.has(type)) unknownRecord(s, type ?? "", o, line, ts, sink);
  quietAlias(s, o);
}
