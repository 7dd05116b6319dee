/**
 * Qwen Code chats: `~/.qwen/projects/<cwd with / → ->/chats/<session>.jsonl`, records linked by `uuid` /
 * `parentUuid`: `user` (`message.parts[].text`; a resumed turn puts a `<system-reminder>` part before the prompt;
 * subtype `notification` is a background agent's `<task-notification>`), `assistant` (`parts[].functionCall`),
 * `tool_result` (`functionResponse`, `toolCallResult.status` success|error and the shell's exit code) and `system`
 * (`chat_compression` with the compressed history, `attribution_snapshot`, `ui_telemetry`). A subagent's chat is
 * `subagents/<parent session>/agent-<id>.jsonl` beside `chats/`. Older releases wrote Gemini CLI's layout under
 * `~/.qwen/tmp`, which the Gemini reader reads.
 */

import { basename, dirname } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { usageMetadataTokens } from "../gemini/usage.ts";
import { arr, isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import { shellReport } from "../shell-report.ts";
import type { RawRecord, Reader, SourceLine } from "../types.ts";
import { usageRecord } from "../usage.ts";

export interface QwenState extends LineState {
  subagent: { agentId: string; parent: string } | null;
  /** Line uuids that became no record → the record standing for them in the tree. */
  alias: Record<string, string>;
  seen: { cwd: string | null; model: string | null; version: string | null };
}

const INJECTED_BLOCK = /<(system-reminder|task-notification)>[\s\S]*?<\/\1>/g;
const QUIET_SYSTEM = new Set(["attribution_snapshot", "ui_telemetry", "slash_command", "at_command"]);
const SUBAGENT_FILE = /^agent-(.+)\.jsonl$/;
const ALIAS_LIMIT = 2000;

export const qwenReader: Reader<QwenState> = {
  provider: "qwen",
  version: 2,
  detect(path, firstLine) {
    if (/[\\/]\.qwen[\\/]projects[\\/].*\.jsonl$/.test(path)) return true;
    if (path !== "") return false;
    // A chat record: its own id and session, and a message in Gemini's parts.
    const o = recordOf(firstLine);
    if (o)
      return (
        typeof o["uuid"] === "string" &&
        typeof o["sessionId"] === "string" &&
        Array.isArray(obj(o["message"])?.["parts"])
      );
    return /"uuid"\s*:/.test(firstLine) && /"parts"\s*:\s*\[/.test(firstLine) && /"sessionId"\s*:/.test(firstLine);
  },
  initialState(path) {
    const m = SUBAGENT_FILE.exec(basename(path));
    const inSubagents = basename(dirname(dirname(path))) === "subagents";
    return {
      sessionId: null,
      unknown: {},
      subagent: m?.[1] && inSubagents ? { agentId: m[1], parent: basename(dirname(path)) } : null,
      alias: {},
      seen: { cwd: null, model: null, version: null },
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: QwenState, o: Obj, line: SourceLine, sink: LineSink): void {
  const ts = str(o["timestamp"]) ?? null;
  session(s, o, line, ts, sink.out);
  const type = str(o["type"]);
  const uuid = str(o["uuid"]) ?? `L${line.line}`;
  const parentKey = parentOf(s, o);
  const parts = arr(obj(o["message"])?.["parts"]) ?? [];
  const before = sink.out.length;
  switch (type) {
    case "user":
      user(o, parts, uuid, parentKey, line, ts, sink.out);
      break;
    case "assistant":
      assistant(o, parts, uuid, parentKey, line, ts, sink.out);
      break;
    case "tool_result":
      toolResult(o, parts, uuid, parentKey, line, ts, sink.out);
      break;
    case "system":
      system(s, o, uuid, parentKey, line, ts, sink);
      break;
    default:
      unknownRecord(s, type ?? "", o, line, ts, sink);
  }
  if (!sink.out.slice(before).some((r) => r.kind !== "session") && parentKey !== null) {
    s.alias[uuid] = parentKey;
    const keys = Object.keys(s.alias);
    if (keys.length > ALIAS_LIMIT) delete s.alias[keys[0]!];
  }
}

function parentOf(s: QwenState, o: Obj): string | null {
  const p = str(o["parentUuid"]);
  return p ? (s.alias[p] ?? p) : null;
}

function session(s: QwenState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const sid = str(o["sessionId"]);
  if (s.sessionId === null) {
    const parent = s.subagent?.parent ?? sid;
    if (!parent) return;
    s.sessionId = s.subagent ? `${parent}:agent-${s.subagent.agentId}` : parent;
    out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      sessionKind: s.subagent ? "subagent" : "main",
      startedAt: ts,
      ...(s.subagent ? { parentSessionId: parent, meta: { agent_id: s.subagent.agentId } } : {}),
    });
  }
  const cwd = str(o["cwd"]) ?? null;
  const model = str(o["model"]) ?? null;
  const version = str(o["version"]) ?? null;
  const changed =
    (cwd && cwd !== s.seen.cwd) || (model && model !== s.seen.model) || (version && version !== s.seen.version);
  if (!changed) return;
  out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: s.sessionId,
    ...(cwd && cwd !== s.seen.cwd ? { cwd } : {}),
    ...(model && model !== s.seen.model ? { model } : {}),
    ...(version && version !== s.seen.version ? { meta: { version } } : {}),
  });
  s.seen = { cwd: cwd ?? s.seen.cwd, model: model ?? s.seen.model, version: version ?? s.seen.version };
}

function textOfParts(parts: unknown[]): string {
  return parts
    .map((p) => (isObj(p) && typeof p["text"] === "string" && p["thought"] !== true ? p["text"] : ""))
    .filter((t) => t !== "")
    .join("\n");
}

function user(
  o: Obj,
  parts: unknown[],
  key: string,
  parentKey: string | null,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const raw = textOfParts(parts);
  if (raw.trim() === "") return;
  const stripped = raw.replace(INJECTED_BLOCK, "").trim();
  const harness = str(o["subtype"]) !== undefined || stripped === "";
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    parentKey,
    role: harness ? "system" : "user",
    text: harness ? raw : stripped,
    typed: !harness,
    meta: harness
      ? { injected: str(o["subtype"]) ?? /<([a-z_-]+)>/.exec(raw)?.[1] ?? "markup" }
      : stripped.length !== raw.trim().length
        ? { injected_context: raw.length - stripped.length }
        : undefined,
  });
}

function assistant(
  o: Obj,
  parts: unknown[],
  key: string,
  parentKey: string | null,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const text = textOfParts(parts);
  const thinking = parts
    .map((p) => (isObj(p) && p["thought"] === true && typeof p["text"] === "string" ? p["text"] : ""))
    .filter((t) => t !== "")
    .join("\n\n");
  const calls = parts.map((p) => obj(obj(p)?.["functionCall"])).filter((c): c is Obj => c !== undefined);
  const meta: Obj = {};
  const model = str(o["model"]);
  if (model) meta["model"] = model;
  if (thinking) meta["thinking"] = thinking;
  if (isObj(o["usageMetadata"])) {
    meta["usage"] = o["usageMetadata"];
    // A record's uuid names the call across the files that may repeat it (a resumed or forked chat).
    const usage = usageRecord(
      { line: line.line, ts, key: `${key}#u` },
      { ...usageMetadataTokens(o["usageMetadata"]), call: str(o["uuid"]) ?? null, model: model ?? null },
    );
    if (usage) out.push(usage);
  }
  if (text !== "" || calls.length === 0)
    out.push({ kind: "message", line: line.line, ts, key, parentKey, role: "assistant", text, typed: false, meta });
  calls.forEach((c, i) => {
    const callId = str(c["id"]) ?? `${key}#${i}`;
    out.push({
      kind: "tool_call",
      line: line.line,
      ts,
      key: i === 0 && text === "" ? key : `${key}#c${i}`,
      parentKey: i === 0 && text === "" ? parentKey : null,
      callId,
      name: str(c["name"]) ?? "unknown",
      input: c["args"] ?? {},
      messageKey: text !== "" ? key : null,
    });
  });
}

function toolResult(
  o: Obj,
  parts: unknown[],
  key: string,
  parentKey: string | null,
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  const result = obj(o["toolCallResult"]);
  const response = parts.map((p) => obj(obj(p)?.["functionResponse"])).find((r) => r !== undefined);
  const callId = str(result?.["callId"]) ?? str(response?.["id"]) ?? "";
  const body = obj(response?.["response"]);
  const value = body?.["output"] ?? body?.["error"];
  const raw = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  const report = shellReport(raw);
  const output = report ? report.output : raw;
  const display = obj(result?.["resultDisplay"]);
  const code = display?.["exitCode"];
  const exit = typeof code === "number" ? code : (report?.exitCode ?? undefined);
  const status = str(result?.["status"]);
  out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key,
    parentKey,
    callId,
    output,
    isError: status === "error" ? true : status === "success" ? false : null,
    exitCode: exit === undefined ? null : Number(exit),
    ...(status ? { meta: { status } } : {}),
  });
}

function system(
  s: QwenState,
  o: Obj,
  key: string,
  parentKey: string | null,
  line: SourceLine,
  ts: string | null,
  sink: LineSink,
): void {
  const subtype = str(o["subtype"]) ?? "";
  if (subtype === "chat_compression") {
    const payload = obj(o["systemPayload"]) ?? {};
    const history = arr(payload["compressedHistory"]) ?? [];
    const first = obj(history[0]);
    const info = obj(payload["info"]) ?? {};
    sink.out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key,
      parentKey,
      pointKind: "compaction",
      text: first ? textOfParts(arr(first["parts"]) ?? []) : "",
      meta: {
        trigger: info["triggerReason"] ?? null,
        pre_tokens: info["originalTokenCount"] ?? null,
        post_tokens: info["newTokenCount"] ?? null,
      },
    });
    return;
  }
  if (QUIET_SYSTEM.has(subtype)) return;
  unknownRecord(s, `system/${subtype}`, o, line, ts, sink);
}
