/**
 * GitHub Copilot CLI: `~/.copilot/session-state/<session>/events.jsonl`, one event per line
 * (`{type, data, id, parentId, timestamp}`): `session.start`/`resume`/`shutdown`, `user.message`,
 * `system.message`, `assistant.message` with `toolRequests[]`, `tool.execution_complete` (`success`, `error`,
 * `shellExecution.exitCode`), `session.compaction_complete` (`summaryContent`). A subagent runs inside its parent's
 * file: its events carry a top-level `agentId`, and become a session of their own.
 */

import { basename, dirname } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, contentText, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface CopilotState extends LineState {
  fallbackId: string;
  /** The session records go to now (the main one, or a subagent's). */
  at: string | null;
  /** Subagents already announced, by agent id → their session id. */
  agents: Record<string, string>;
  /** The `task` call that started the subagent not yet seen by its agent id. */
  starting: { callId: string; name: string | null; description: string | null } | null;
  seen: { cwd: string | null; model: string | null };
}

/** Events that carry nothing the conversation needs (turn brackets, usage, model-call logs, permissions). */
const QUIET = new Set([
  "session.shutdown",
  "session.permissions_changed",
  "session.compaction_start",
  "session.info",
  "session.warning",
  "assistant.turn_start",
  "assistant.turn_end",
  "assistant.intent",
  "assistant.reasoning",
  "tool.execution_start",
  "tool.execution_partial_result",
  "tool.execution_progress",
  "subagent.selected",
  "subagent.configured",
  "subagent.completed",
  "subagent.failed",
  "hook.start",
  "hook.end",
]);

export const copilotReader: Reader<CopilotState> = {
  provider: "copilot",
  version: 2,
  detect(path, firstLine) {
    if (/[\\/]\.copilot[\\/]session-state[\\/][^\\/]+[\\/]events\.jsonl$/.test(path)) return true;
    if (path !== "") return false;
    return /^\s*\{\s*"type"\s*:\s*"session\.(start|resume)"/.test(firstLine);
  },
  initialState(path) {
    return {
      sessionId: null,
      unknown: {},
      fallbackId: basename(dirname(path)),
      at: null,
      agents: {},
      starting: null,
      seen: { cwd: null, model: null },
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: CopilotState, o: Obj, line: SourceLine, sink: LineSink): void {
  const type = str(o["type"]) ?? "";
  const d = obj(o["data"]) ?? {};
  const ts = str(o["timestamp"]) ?? null;
  const key = str(o["id"]) ?? `L${line.line}`;
  if (type === "session.start" || type === "session.resume") return start(s, d, line, ts, sink);
  if (s.sessionId === null) start(s, { sessionId: s.fallbackId }, line, ts, sink);
  if (type === "subagent.started") {
    s.starting = {
      callId: str(d["toolCallId"]) ?? "",
      name: str(d["agentName"]) ?? null,
      description: str(d["agentDescription"]) ?? null,
    };
    return;
  }
  moveTo(s, str(o["agentId"]) ?? null, line, ts, sink);
  switch (type) {
    case "user.message": {
      const text = str(d["content"]) ?? "";
      if (text.trim() === "") return;
      sink.out.push({ kind: "message", line: line.line, ts, key, role: "user", text, typed: true });
      return;
    }
    case "system.message":
      sink.out.push({
        kind: "session",
        line: line.line,
        ts,
        key: "session",
        sessionId: s.at!,
        meta: { system_prompt: { chars: contentText(d["content"]).length } },
      });
      return;
    case "assistant.message":
      return reply(d, key, line, ts, sink);
    case "tool.execution_complete":
      return result(d, key, line, ts, sink);
    case "session.usage_record":
      return usage(d, key, line, ts, sink);
    case "session.compaction_complete":
      if (d["success"] === false) return;
      sink.out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key,
        pointKind: "compaction",
        text: str(d["summaryContent"]) ?? "",
        meta: { pre_tokens: d["preCompactionTokens"] ?? null, post_tokens: d["postCompactionTokens"] ?? null },
      });
      return;
    case "session.model_change": {
      const model = str(d["newModel"]);
      if (model && model !== s.seen.model) {
        s.seen.model = model;
        sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.at!, model });
      }
      return;
    }
    case "abort":
      sink.out.push({
        kind: "notice",
        line: line.line,
        ts,
        key,
        level: "warning",
        text: str(d["reason"]) ?? "aborted",
        meta: { interrupt: true },
      });
      return;
    default:
      if (QUIET.has(type) || type.startsWith("model.")) return;
      unknownRecord(s, type, d, line, ts, sink);
  }
}

function start(s: CopilotState, d: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const cwd = str(obj(d["context"])?.["cwd"]) ?? null;
  const model = str(d["selectedModel"]) ?? null;
  if (s.sessionId === null) {
    s.sessionId = str(d["sessionId"]) ?? s.fallbackId;
    s.at = s.sessionId;
    s.seen = { cwd, model };
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      sessionKind: "main",
      startedAt: str(d["startTime"]) ?? ts,
      ...(cwd ? { cwd } : {}),
      ...(model ? { model } : {}),
      meta: { copilot_version: d["copilotVersion"] ?? null },
    });
    return;
  }
  moveTo(s, null, line, ts, sink);
  if (cwd && cwd !== s.seen.cwd) {
    s.seen.cwd = cwd;
    sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, cwd });
  }
}

/** Moves reading to the main session (no agent id) or to a subagent's, announcing a new subagent once. */
function moveTo(s: CopilotState, agentId: string | null, line: SourceLine, ts: string | null, sink: LineSink): void {
  const main = s.sessionId!;
  const target = agentId === null ? main : (s.agents[agentId] ?? `${main}:agent-${agentId}`);
  if (target === s.at) return;
  s.at = target;
  if (agentId !== null && s.agents[agentId] === undefined) {
    s.agents[agentId] = target;
    const started = s.starting;
    s.starting = null;
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: target,
      sessionKind: "subagent",
      parentSessionId: main,
      startedAt: ts,
      ...(s.seen.cwd ? { cwd: s.seen.cwd } : {}),
      meta: { agent_id: agentId, agent_name: started?.name ?? null, spawned_by_call: started?.callId ?? null },
    });
    return;
  }
  sink.out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: target });
}

function reply(d: Obj, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const text = str(d["content"]) ?? "";
  const requests = (arr(d["toolRequests"]) ?? []).filter(isObj);
  const meta: Obj = {};
  const model = str(d["model"]);
  if (model) meta["model"] = model;
  const reasoning = str(d["reasoningText"]);
  if (reasoning) meta["thinking"] = reasoning;
  if (text !== "" || requests.length === 0)
    sink.out.push({ kind: "message", line: line.line, ts, key, role: "assistant", text, typed: false, meta });
  requests.forEach((q, i) => {
    const callId = str(q["toolCallId"]) ?? `${key}#${i}`;
    sink.out.push({
      kind: "tool_call",
      line: line.line,
      ts,
      key: `${key}#c${i}`,
      callId,
      name: str(q["name"]) ?? "unknown",
      input: q["arguments"] ?? {},
      messageKey: text !== "" ? key : null,
    });
  });
}

function result(d: Obj, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const res = obj(d["result"]);
  const error = obj(d["error"]);
  const output = str(res?.["content"]) ?? str(error?.["message"]) ?? "";
  const code = obj(d["shellExecution"])?.["exitCode"];
  sink.out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key,
    callId: str(d["toolCallId"]) ?? "",
    output,
    isError: d["success"] === false ? true : d["success"] === true ? false : null,
    exitCode: typeof code === "number" ? code : null,
  });
}

/**
 * One model call's tokens. `inputTokens` counts the prompt with its cached part (as the OpenAI-style APIs Copilot
 * relays do), so the cache reads are taken out of it; `cost` is premium requests, not dollars, and is not kept.
 * The accounting id names the call should a file repeat it.
 */
function usage(d: Obj, key: string, line: SourceLine, ts: string | null, sink: LineSink): void {
  const u = obj(d["usage"]);
  if (!u) return;
  const input = count(u["inputTokens"]);
  const cacheRead = Math.min(count(u["cacheReadTokens"]), input);
  const rec = usageRecord(
    { line: line.line, ts, key: `${key}#u` },
    {
      call: str(obj(u["accounting"])?.["usageId"]) ?? str(u["apiCallId"]) ?? null,
      model: str(u["model"]) ?? null,
      input: input - cacheRead,
      cacheRead,
      cacheWrite: count(u["cacheWriteTokens"]),
      output: count(u["outputTokens"]),
      reasoning: count(u["reasoningTokens"]),
    },
  );
  if (rec) sink.out.push(rec);
}
