/**
 * Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`{timestamp, type, payload}` lines), the flat
 * and archived layouts, the early Rust layout (bare meta line, bare response items, `record_type` lines) and the
 * TypeScript-era whole-file `.json`. See research/transcript-formats §3.2.
 */
import { arr, contentText, isObj, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { LineProblem, MessageRecord, RawRecord, Reader, SourceLine } from "../types.ts";

export interface CodexState extends LineState {
  /** TypeScript-era `.json` rollouts are one JSON document; its text is kept until it parses. */
  legacyJson: { text: string; firstLine: number } | null;
  isJsonFile: boolean;
  /**
   * The first of a pair of records that state one message twice: a prompt is written as a `response_item`
   * message and then as `event_msg.user_message` (0.16x: `event_msg.item_completed` with a UserMessage); a reply as
   * `event_msg.agent_message` (an AgentMessage item) and then a `response_item`. The pair is one message; the first
   * waits here for its twin. A reply with no twin waits too: when a `compacted` record follows it, it was the
   * compaction's summary, not a reply (`bare`).
   */
  pending: { kind: "user" | "assistant"; record: MessageRecord; envelope: boolean; bare?: boolean } | null;
  /** Exit codes reported by `exec_command_end` / `patch_apply_end` before the call's output arrived. */
  exitCodes: Record<string, number>;
  /** Line of the last compaction record, to merge `compacted` with `event_msg.context_compacted`. */
  lastCompact: { line: number; key: string; hasText: boolean } | null;
  seen: { cwd: string | null; model: string | null; title: string | null };
}

/** Context Codex injects in user-role messages; never a typed prompt. */
const INJECTED_PREFIXES = [
  "<environment_context>",
  "<user_instructions>",
  "<permissions instructions>",
  "# AGENTS.md instructions for ",
  "<INSTRUCTIONS>",
  "<user_shell_command>",
  "<turn_aborted>",
];

const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "web_search_call",
  "tool_search_call",
  "tool_search_output",
  "ghost_snapshot",
  "compaction",
  "image_generation_call",
  "agent_message",
  "additional_tools",
  "other",
]);

const QUIET_EVENTS = new Set([
  "token_count",
  "agent_reasoning",
  "agent_reasoning_raw_content",
  "agent_reasoning_section_break",
  "task_started",
  "task_complete",
  "exec_command_begin",
  "exec_command_output_delta",
  "patch_apply_begin",
  "mcp_tool_call_begin",
  "mcp_tool_call_end",
  "web_search_begin",
  "web_search_end",
  "view_image_tool_call",
  "entered_review_mode",
  "exited_review_mode",
  "item_started",
  "thread_settings_applied",
  "guardian_assessment",
  "collab_agent_spawn_begin",
  "collab_agent_spawn_end",
  "collab_waiting_begin",
  "collab_waiting_end",
  "collab_close_begin",
  "collab_close_end",
  "sub_agent_activity",
  "dynamic_tool_call_request",
  "dynamic_tool_call_response",
  "undo_started",
  "undo_completed",
  "thread_goal_updated",
  "plan_update",
  "turn_diff",
  "background_event",
  "shutdown_complete",
]);

const QUIET_ITEMS = new Set([
  "turn_context",
  "world_state",
  "token_usage_record",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
]);

const ROLLOUT_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

export const codexReader: Reader<CodexState> = {
  provider: "codex",
  version: 2,
  detect(path, firstLine) {
    if (/[\\/]\.codex[\\/]/.test(path) || /rollout-[^\\/]*\.jsonl?$/.test(path)) return true;
    // A rollout line: one of its types with its payload; the TypeScript-era document opens with its session.
    const o = recordOf(firstLine);
    if (o)
      return (
        (ROLLOUT_TYPES.has(String(o["type"])) && isObj(o["payload"])) ||
        (isObj(o["session"]) && Array.isArray(o["items"]))
      );
    return (
      /^\s*\{\s*("timestamp"\s*:\s*"[^"]*"\s*,\s*)?"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context)"/.test(
        firstLine,
      ) || /^\s*\{\s*"session"\s*:/.test(firstLine)
    );
  },
  initialState(path) {
    return {
      sessionId: null,
      legacyJson: null,
      isJsonFile: path.endsWith(".json"),
      pending: null,
      exitCodes: {},
      lastCompact: null,
      seen: { cwd: null, model: null, title: null },
      unknown: {},
    };
  },
  parse(lines, state) {
    return parseLines(
      lines,
      structuredClone(state),
      (s, o, line, sink) => readLine(s, o, line, sink.out, sink),
      (s, line, sink) => {
        if (!s.isJsonFile) return false;
        readLegacyJsonLine(s, line, sink.out, sink.problems);
        return true;
      },
    );
  },
};

function readLegacyJsonLine(s: CodexState, line: SourceLine, out: RawRecord[], problems: LineProblem[]): void {
  const acc = s.legacyJson ?? { text: "", firstLine: line.line };
  acc.text = acc.text === "" ? line.text : `${acc.text}\n${line.text}`;
  s.legacyJson = acc;
  let doc: unknown;
  try {
    doc = JSON.parse(acc.text);
  } catch {
    return; // not complete yet
  }
  s.legacyJson = null;
  const root = obj(doc);
  const session = obj(root?.["session"]);
  const items = arr(root?.["items"]);
  const at: SourceLine = { text: acc.text.slice(0, 200), line: acc.firstLine };
  if (!root || !items) {
    problems.push(problem(at, "a .json rollout without {session, items}"));
    return;
  }
  readMeta(
    s,
    { ...(session ?? {}), id: str(session?.["id"]) ?? "legacy" },
    at,
    str(session?.["timestamp"]) ?? null,
    out,
  );
  items.forEach((item, i) => {
    if (!isObj(item)) return;
    if (s.pending) flushPending(s, out);
    readResponseItem(s, item, { text: "", line: acc.firstLine }, null, out, { out, problems }, `I${i}`, false);
  });
  flushPending(s, out);
}

function readLine(s: CodexState, o: Obj, line: SourceLine, out: RawRecord[], sink: LineSink): void {
  const ts = str(o["timestamp"]) ?? null;
  const type = str(o["type"]);
  const payload = obj(o["payload"]);
  if (s.pending && pairWithPending(s, type, payload ?? o, out)) return;
  if (payload && type) {
    if (type === "session_meta") return readMeta(s, payload, line, ts, out);
    if (type === "response_item") return readResponseItem(s, payload, line, ts, out, sink, `L${line.line}`, true);
    if (type === "event_msg") return readEvent(s, payload, line, ts, out, sink);
    if (type === "compacted") return readCompacted(s, payload, line, ts, out);
    if (type === "turn_context") return readTurnContext(s, payload, line, ts, out);
    if (QUIET_ITEMS.has(type)) return;
    return unknownRecord(s, type, payload, line, ts, sink);
  }
  // Early Rust layout: a bare meta line first, then bare response items and `record_type` state lines.
  if (str(o["record_type"]) !== undefined) return;
  if (type && RESPONSE_ITEM_TYPES.has(type)) return readResponseItem(s, o, line, ts, out, sink, `L${line.line}`, false);
  if (!type && str(o["id"]) && s.sessionId === null) return readMeta(s, o, line, ts, out);
  unknownRecord(s, type ?? "", o, line, ts, sink);
}

function readMeta(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const id = str(p["id"]) ?? str(p["session_id"]);
  if (!id) return;
  const source = p["source"];
  const threadSource = str(p["thread_source"]);
  const git = obj(p["git"]);
  if (s.sessionId !== null) {
    // Forked and sub-agent rollouts repeat the parent's meta after their own.
    if (id !== s.sessionId) {
      out.push({
        kind: "session",
        line: line.line,
        ts,
        key: "session",
        sessionId: s.sessionId,
        meta: { replayed_parent: id },
      });
    }
    return;
  }
  s.sessionId = id;
  const sub = isObj(source) && "subagent" in source;
  const parent = str(p["parent_thread_id"]) ?? str(p["forked_from_id"]) ?? null;
  const kind =
    sub || threadSource === "subagent"
      ? "subagent"
      : source === "exec" || str(p["originator"]) === "codex_exec"
        ? "exec"
        : str(p["forked_from_id"])
          ? "fork"
          : "main";
  const cwd = str(p["cwd"]) ?? null;
  s.seen.cwd = cwd;
  out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: kind,
    cwd,
    gitBranch: str(git?.["branch"]) ?? null,
    parentSessionId: parent,
    startedAt: str(p["timestamp"]) ?? ts,
    meta: {
      originator: p["originator"] ?? null,
      cli_version: p["cli_version"] ?? null,
      source: typeof source === "string" ? source : source === undefined ? null : source,
      model_provider: p["model_provider"] ?? null,
      git_commit: git?.["commit_hash"] ?? null,
      repository_url: git?.["repository_url"] ?? null,
      ...(str(p["agent_nickname"]) ? { agent_nickname: p["agent_nickname"] } : {}),
      ...(str(p["agent_role"]) ? { agent_role: p["agent_role"] } : {}),
    },
  });
}

function readTurnContext(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  if (s.sessionId === null) return;
  const model = str(p["model"]) ?? null;
  const cwd = str(p["cwd"]) ?? null;
  const changed: Record<string, string> = {};
  if (model && model !== s.seen.model) changed["model"] = s.seen.model = model;
  if (cwd && cwd !== s.seen.cwd) changed["cwd"] = s.seen.cwd = cwd;
  if (Object.keys(changed).length > 0)
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, ...changed });
}

/** Completes a pending message with its twin, or lets it go out alone when the line is something else. */
function pairWithPending(s: CodexState, type: string | undefined, p: Obj, out: RawRecord[]): boolean {
  const pending = s.pending!;
  let inner = type === "response_item" || type === "event_msg" ? str(p["type"]) : type;
  // 0.16x states prompts and replies as completed items instead of user_message / agent_message events.
  const item = inner === "item_completed" ? obj(p["item"]) : undefined;
  if (item) inner = `item:${str(item["type"]) ?? ""}`;
  if (pending.kind === "user" && ((type === "event_msg" && inner === "user_message") || inner === "item:UserMessage")) {
    const text = item ? itemText(item) : str(p["message"]);
    out.push({ ...pending.record, text: text || pending.record.text, typed: true });
    s.pending = null;
    return true;
  }
  if (pending.kind === "assistant" && !pending.bare && inner === "message" && str(p["role"]) === "assistant") {
    out.push({ ...pending.record, text: contentText(p["content"]), meta: { ...phaseMeta(p) } });
    s.pending = null;
    return true;
  }
  if (pending.kind === "assistant" && pending.bare && (inner === "agent_message" || inner === "item:AgentMessage")) {
    // The twin came second: the reply is already pending.
    return true;
  }
  if (pending.bare && inner === "task_complete") {
    // The turn ended on this reply: it was no compaction's summary.
    flushPending(s, out);
    return false;
  }
  if (pending.kind === "assistant" && pending.bare && type === "compacted") {
    // The reply right before a compaction is the summary the compaction states; it was never shown as a reply.
    s.pending = null;
    return false;
  }
  const quiet =
    (type === "event_msg" && inner !== undefined && QUIET_EVENTS.has(inner)) ||
    (item !== undefined && !QUIET_WAIT_ITEMS.has(inner ?? "")) ||
    (type !== undefined && QUIET_ITEMS.has(type)) ||
    (type === "response_item" && inner === "reasoning");
  if (quiet) return false;
  flushPending(s, out);
  return false;
}

/** Completed items that end a pending message's wait (everything else is bookkeeping that may sit between twins). */
const QUIET_WAIT_ITEMS = new Set(["item:UserMessage", "item:AgentMessage"]);

function itemText(item: Obj): string {
  return (arr(item["content"]) ?? [])
    .map((b) => str(obj(b)?.["text"]) ?? "")
    .filter((t) => t !== "")
    .join("\n");
}

function flushPending(s: CodexState, out: RawRecord[]): void {
  const pending = s.pending;
  if (!pending) return;
  s.pending = null;
  if (pending.kind === "user") {
    // Since rollouts carry event_msg, typed prompts always come with an event_msg twin; an unpaired user-role
    // item is injected context. Bare (pre-envelope) rollouts have no twins, so there it is the prompt.
    out.push(
      pending.envelope
        ? { ...pending.record, typed: false, meta: { injected: "unpaired" } }
        : { ...pending.record, typed: true },
    );
  } else out.push(pending.record);
}

function isInjected(text: string): boolean {
  const t = text.trimStart();
  return INJECTED_PREFIXES.some((p) => t.startsWith(p));
}

function readResponseItem(
  s: CodexState,
  p: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
  sink: LineSink,
  key: string,
  envelope: boolean,
): void {
  const problems = sink.problems;
  const type = str(p["type"]);
  switch (type) {
    case "message": {
      const role = str(p["role"]);
      const text = contentText(p["content"]);
      if (role === "user") {
        if (isInjected(text)) {
          out.push({
            kind: "message",
            line: line.line,
            ts,
            key,
            role: "user",
            text,
            typed: false,
            meta: { injected: injectedKind(text) },
          });
        } else {
          flushPending(s, out);
          s.pending = {
            kind: "user",
            envelope,
            record: { kind: "message", line: line.line, ts, key, role: "user", text, typed: true },
          };
        }
      } else if (role === "assistant") {
        const record: MessageRecord = {
          kind: "message",
          line: line.line,
          ts,
          key,
          role: "assistant",
          text,
          typed: false,
          meta: phaseMeta(p),
        };
        // Inside an envelope a reply without its event twin may be a compaction's summary: it waits for the next
        // record to tell (see `pending`).
        if (envelope) {
          flushPending(s, out);
          s.pending = { kind: "assistant", record, envelope, bare: true };
        } else out.push(record);
      } else if (role === "developer" || role === "system") {
        out.push({ kind: "message", line: line.line, ts, key, role, text, typed: false });
      } else {
        problems.push(problem(line, `message with unknown role '${role ?? ""}'`));
        out.push({
          kind: "message",
          line: line.line,
          ts,
          key,
          role: "system",
          text,
          typed: false,
          meta: { raw_role: role ?? null },
        });
      }
      return;
    }
    case "reasoning": {
      const summary = (arr(p["summary"]) ?? []).map((b) => str(obj(b)?.["text"]) ?? "").filter((t) => t !== "");
      const content = (arr(p["content"]) ?? []).map((b) => str(obj(b)?.["text"]) ?? "").filter((t) => t !== "");
      const text = [...summary, ...content].join("\n\n");
      if (text !== "")
        out.push({
          kind: "message",
          line: line.line,
          ts,
          key,
          role: "assistant",
          text,
          typed: false,
          meta: { reasoning: true },
        });
      return;
    }
    case "function_call": {
      const name = str(p["name"]) ?? "unknown";
      const raw = p["arguments"];
      let input: unknown = raw;
      if (typeof raw === "string") {
        // Arguments are a JSON object in a string; anything else is kept raw without paying for a thrown error.
        input = { raw };
        if (raw.charCodeAt(0) === 123 /* { */) {
          try {
            input = JSON.parse(raw);
          } catch {
            // kept raw
          }
        }
      }
      out.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key,
        callId: str(p["call_id"]) ?? key,
        name,
        input,
        meta: namespaceMeta(p),
      });
      return;
    }
    case "custom_tool_call":
      out.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key,
        callId: str(p["call_id"]) ?? key,
        name: str(p["name"]) ?? "unknown",
        input: { input: p["input"] ?? "" },
      });
      return;
    case "local_shell_call": {
      const action = obj(p["action"]) ?? {};
      out.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key,
        callId: str(p["call_id"]) ?? key,
        name: "local_shell",
        input: { command: action["command"] ?? [], workdir: action["working_directory"] ?? null },
      });
      return;
    }
    case "web_search_call": {
      const action = obj(p["action"]) ?? {};
      out.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key,
        callId: str(p["call_id"]) ?? str(p["id"]) ?? key,
        name: "web_search",
        input: action,
      });
      return;
    }
    case "function_call_output":
    case "custom_tool_call_output":
    case "local_shell_call_output": {
      const callId = str(p["call_id"]) ?? "";
      const parsed = parseOutput(p["output"]);
      const early = s.exitCodes[callId];
      if (early !== undefined) delete s.exitCodes[callId];
      const exitCode = parsed.exitCode ?? early ?? null;
      out.push({
        kind: "tool_result",
        line: line.line,
        ts,
        key,
        callId,
        output: parsed.text,
        isError: parsed.success === false ? true : null,
        exitCode,
        meta: parsed.meta,
      });
      return;
    }
    case "compaction":
      readCompacted(s, { message: "" }, line, ts, out);
      return;
    case "tool_search_call":
    case "tool_search_output":
    case "ghost_snapshot":
    case "image_generation_call":
    case "additional_tools":
    case "agent_message":
    case "other":
      return;
    default:
      unknownRecord(s, `response_item/${type ?? ""}`, p, line, ts, sink);
  }
}

function injectedKind(text: string): string {
  const m = /^\s*(?:<([a-z_ ]+)>|# (AGENTS\.md))/.exec(text);
  return m?.[1] ?? m?.[2] ?? "context";
}

function phaseMeta(p: Obj): Record<string, unknown> | undefined {
  const phase = str(p["phase"]);
  return phase ? { phase } : undefined;
}

function namespaceMeta(p: Obj): Record<string, unknown> | undefined {
  const ns = str(p["namespace"]);
  return ns ? { namespace: ns } : undefined;
}

interface ParsedOutput {
  text: string;
  exitCode: number | null;
  success: boolean | null;
  meta?: Record<string, unknown>;
}

const EXIT_LINE = /^Exit code: (-?\d+)\s*$/m;
const PROCESS_EXIT = /Process exited with code (-?\d+)/;
const PATCH_FAILED = /^(apply_patch verification failed|Failed to apply patch|Invalid patch)/;

/** Codex tool outputs differ by version: a JSON string with metadata, "Exit code: N … Output:" text, or blocks. */
export function parseOutput(output: unknown): ParsedOutput {
  if (Array.isArray(output)) return { text: contentText(output), exitCode: null, success: null };
  if (isObj(output)) {
    const text = str(output["output"]) ?? str(output["content"]) ?? JSON.stringify(output);
    const code = obj(output["metadata"])?.["exit_code"];
    return {
      text,
      exitCode: typeof code === "number" ? code : null,
      success: typeof output["success"] === "boolean" ? output["success"] : null,
    };
  }
  const raw = typeof output === "string" ? output : output === undefined || output === null ? "" : String(output);
  if (raw.startsWith("{")) {
    try {
      const doc = JSON.parse(raw) as unknown;
      if (isObj(doc) && (typeof doc["output"] === "string" || isObj(doc["metadata"]))) {
        const md = obj(doc["metadata"]);
        const code = md?.["exit_code"];
        return {
          text: str(doc["output"]) ?? "",
          exitCode: typeof code === "number" ? code : null,
          success: null,
          meta: typeof md?.["duration_seconds"] === "number" ? { duration_s: md["duration_seconds"] } : undefined,
        };
      }
    } catch {
      // plain text that happens to start with a brace
    }
  }
  const head = raw.slice(0, 400);
  // A patch that does not apply says so in plain text (0.16x), with no exit code.
  if (PATCH_FAILED.test(head)) return { text: raw, exitCode: null, success: false };
  const exit = EXIT_LINE.exec(head) ?? PROCESS_EXIT.exec(head);
  if (exit) {
    const marker = raw.indexOf("\nOutput:\n");
    const text = marker !== -1 ? raw.slice(marker + 9) : raw;
    return { text, exitCode: Number(exit[1]), success: null };
  }
  return { text: raw, exitCode: null, success: null };
}

function readEvent(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[], sink: LineSink): void {
  const type = str(p["type"]);
  const key = `L${line.line}`;
  switch (type) {
    case "item_completed":
      return readCompletedItem(s, obj(p["item"]) ?? {}, line, ts, out, sink);
    case "user_message": {
      const text = str(p["message"]) ?? "";
      if (text.trim() === "" || isInjected(text)) return;
      out.push({
        kind: "message",
        line: line.line,
        ts,
        key,
        role: "user",
        text,
        typed: true,
        meta: { source: "event_msg" },
      });
      return;
    }
    case "agent_message": {
      const text = str(p["message"]) ?? "";
      if (text.trim() === "") return;
      flushPending(s, out);
      s.pending = {
        kind: "assistant",
        envelope: true,
        record: {
          kind: "message",
          line: line.line,
          ts,
          key,
          role: "assistant",
          text,
          typed: false,
          meta: { source: "event_msg", ...phaseMeta(p) },
        },
      };
      return;
    }
    case "exec_command_end": {
      const callId = str(p["call_id"]);
      const code = p["exit_code"];
      if (callId && typeof code === "number") remember(s, callId, code);
      return;
    }
    case "patch_apply_end": {
      const callId = str(p["call_id"]);
      if (callId && typeof p["success"] === "boolean") remember(s, callId, p["success"] ? 0 : 1);
      return;
    }
    case "error":
    case "stream_error": {
      const text = str(p["message"]) ?? JSON.stringify(p);
      out.push({
        kind: "notice",
        line: line.line,
        ts,
        key,
        level: type === "error" ? "error" : "warning",
        text,
        meta: { codex_error_info: p["codex_error_info"] ?? null },
      });
      return;
    }
    case "turn_aborted":
      out.push({
        kind: "notice",
        line: line.line,
        ts,
        key,
        level: "warning",
        text: `turn aborted: ${str(p["reason"]) ?? "unknown"}`,
        meta: { interrupt: true },
      });
      return;
    case "context_compacted":
      return compactionMark(s, line, ts, key, out);
    case "thread_name_updated": {
      const title = str(p["thread_name"]);
      if (title && s.sessionId) {
        s.seen.title = title;
        out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, title });
      }
      return;
    }
    default:
      if (type && QUIET_EVENTS.has(type)) return;
      unknownRecord(s, `event_msg/${type ?? ""}`, p, line, ts, sink);
  }
}

/** A compaction's second record (`context_compacted`, a ContextCompaction item) states the one before it. */
function compactionMark(s: CodexState, line: SourceLine, ts: string | null, key: string, out: RawRecord[]): void {
  if (s.lastCompact && line.line - s.lastCompact.line <= 12) return;
  out.push({ kind: "resume_point", line: line.line, ts, key, pointKind: "compaction", text: "" });
  s.lastCompact = { line: line.line, key, hasText: false };
}

const QUIET_COMPLETED_ITEMS = new Set(["Reasoning", "Plan", "WebSearch", "McpToolCall", "TodoList", "ImageView"]);

/** 0.16x `event_msg.item_completed`: what its UI shows, most of it stated by response items too. */
function readCompletedItem(
  s: CodexState,
  item: Obj,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
  sink: LineSink,
): void {
  const type = str(item["type"]) ?? "";
  const id = str(item["id"]);
  switch (type) {
    case "UserMessage": {
      // Its response_item twin did not come first (it always has so far): the item alone is the prompt.
      const text = itemText(item);
      if (text.trim() === "" || isInjected(text)) return;
      out.push({ kind: "message", line: line.line, ts, key: `L${line.line}`, role: "user", text, typed: true });
      return;
    }
    case "AgentMessage": {
      const text = itemText(item);
      if (text.trim() === "") return;
      flushPending(s, out);
      s.pending = {
        kind: "assistant",
        envelope: true,
        record: { kind: "message", line: line.line, ts, key: `L${line.line}`, role: "assistant", text, typed: false },
      };
      return;
    }
    case "CommandExecution": {
      const code = item["exit_code"];
      if (id && typeof code === "number") remember(s, id, code);
      return;
    }
    case "FileChange": {
      const status = str(item["status"]);
      if (id && (status === "completed" || status === "failed")) remember(s, id, status === "completed" ? 0 : 1);
      return;
    }
    case "ContextCompaction":
      return compactionMark(s, line, ts, `L${line.line}`, out);
    default:
      if (QUIET_COMPLETED_ITEMS.has(type)) return;
      unknownRecord(s, `item_completed/${type}`, item, line, ts, sink);
  }
}

function remember(s: CodexState, callId: string, code: number): void {
  const keys = Object.keys(s.exitCodes);
  if (keys.length >= 256) delete s.exitCodes[keys[0]!];
  s.exitCodes[callId] = code;
}

/**
 * Codex puts its own instructions before the summary it hands the next window ("Another language model started to
 * solve this problem … use the information in this summary to assist with your own analysis:"): harness text.
 */
const SUMMARY_PREAMBLE = /^Another language model started to solve this problem[^\n]*?:\s*\n/;

function readCompacted(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const text = (str(p["message"]) ?? "").replace(SUMMARY_PREAMBLE, "");
  const meta: Record<string, unknown> = {};
  for (const k of ["window_number", "window_id", "previous_window_id"]) if (p[k] !== undefined) meta[k] = p[k];
  const replacement = arr(p["replacement_history"]);
  if (replacement) meta["replacement_items"] = replacement.length;
  if (s.lastCompact && line.line - s.lastCompact.line <= 3 && !s.lastCompact.hasText) {
    out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key: s.lastCompact.key,
      pointKind: "compaction",
      text,
      update: true,
      meta,
    });
    s.lastCompact.hasText = text !== "";
    return;
  }
  const key = `L${line.line}`;
  out.push({ kind: "resume_point", line: line.line, ts, key, pointKind: "compaction", text, meta });
  s.lastCompact = { line: line.line, key, hasText: text !== "" };
}
