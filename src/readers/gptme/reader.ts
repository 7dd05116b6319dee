/**
 * gptme: one conversation per folder under its logs folder, `<logs>/<name>/conversation.jsonl`, one message a line
 * (`role`, `content`, `timestamp` in local time without a zone, and `pinned`, `hide`, `ui_only`, `call_id`, `files`,
 * `metadata` when set). The system prompt comes first, hidden. A native tool call is a line of the assistant's
 * content, `@<tool>(<call id>): <JSON arguments>`; its result is a `system` message carrying the same `call_id`
 * (`Error during execution: …` when the tool failed, `Return code: N` after a command's output when it was not 0).
 * gptme appends the files a prompt names to it as fenced blocks (```` ````math.js ````). A compaction rewrites the file: it
 * starts again with the system prompt, a `system` message marked `metadata.compaction_artifact: "intro"` and the
 * summary as an assistant message, then the messages it kept. A subagent is a conversation of its own,
 * `subagent-<id>-<suffix>/`, whose `subagent-meta.json` names its parent's folder; `config.toml` beside each holds
 * the conversation's title.
 */
import { basename, dirname, join } from "node:path";
import { isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface GptmeState extends LineState {
  folder: string;
  parentId: string | null;
  title: string | null;
  agentId: string | null;
  started: boolean;
  model: string | null;
  /** The compaction whose summary the next assistant message is. */
  compaction: string | null;
  /** Each call's tool, by its id: a result is read as its tool wrote it. */
  tools: Record<string, string>;
}

const IN_LOGS = /[\\/]gptme[\\/]logs[\\/][^\\/]+[\\/]conversation\.jsonl$/;
const ROLES = new Set(["system", "user", "assistant"]);
const KEYS = new Set([
  "role",
  "content",
  "timestamp",
  "files",
  "file_hashes",
  "pinned",
  "hide",
  "ui_only",
  "ephemeral_ttl",
  "call_id",
  "metadata",
]);
/** A native tool call as gptme writes it into the assistant's text. */
const CALL = /(?:^|\n)@([\w.-]+)\(([^()\s]+)\): /g;
/** The system prompt names the version that wrote it. */
const VERSION = /^You are gptme v(\S+?),/;
const WORKDIR = /^\*\*Working Directory:\*\* (.+)$/m;
const RETURN_CODE = /^Return code: (-?\d+)$/m;
const FAILED = /^Error during execution\b/;
const READ_FAILED = /^(File not found|Not a file|Permission denied|Read denied|Cannot read binary file)\b/;
/** The header of a command's report: the command on its line in backticks, or fenced below. */
const SHELL_HEAD =
  /^(?:Ran (?:allowlisted )?command|Command (?:timed out|interrupted|killed)[^:\n]*):(?: `[^\n]*`|\n```bash\n[\s\S]*?\n```)\n\n/;
/** One stream of a command's output: fenced, or one line in backticks. */
const SHELL_PART = /^(?:```(?:stdout|stderr)\n([\s\S]*?)\n```|`([^\n]*)`)\n\n/;
/** A file gptme attached to a prompt, fenced with four backticks and named by the path as typed. */
const ATTACHED = /\n\n````([^\n`]+)\n/;

export const gptmeReader: Reader<GptmeState> = {
  provider: "gptme",
  version: 2,
  // A conversation in gptme's own logs folder is told by its path: its first line is gptme's whole system prompt
  // (tens of kilobytes), which every other format would otherwise parse and scan before this one.
  byFolder: true,
  detect(path, firstLine) {
    if (path !== "") return firstLine === "" && IN_LOGS.test(path);
    const o = recordOf(firstLine);
    return (
      o !== null &&
      ROLES.has(str(o["role"]) ?? "") &&
      typeof o["content"] === "string" &&
      typeof o["timestamp"] === "string" &&
      Object.keys(o).every((k) => KEYS.has(k))
    );
  },
  context(path) {
    const dir = dirname(path);
    return [join(dir, "config.toml"), join(dir, "subagent-meta.json")];
  },
  initialState(path, context = {}) {
    const dir = dirname(path);
    const meta = json(context[join(dir, "subagent-meta.json")]);
    const parent = str(meta?.["parent_logdir"]);
    return {
      sessionId: null,
      unknown: {},
      folder: basename(dir),
      parentId: parent ? basename(parent) : null,
      title: titleOf(context[join(dir, "config.toml")]),
      agentId: str(meta?.["agent_id"]) ?? null,
      started: false,
      model: null,
      compaction: null,
      tools: {},
    };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readLine);
  },
};

type Base = { line: number; ts: string | null; key: string };

function readLine(s: GptmeState, o: Obj, line: SourceLine, sink: LineSink): void {
  const ts = localTime(o["timestamp"]);
  const role = str(o["role"]) ?? "";
  const content = str(o["content"]) ?? "";
  if (s.sessionId === null) start(s, line, ts, VERSION.exec(content)?.[1] ?? null, sink);
  const base: Base = { line: line.line, ts, key: `L${line.line}` };
  if (role === "system") return system(s, o, content, base, sink);
  if (role === "user") return user(content, base, sink);
  if (role === "assistant") return assistant(s, o, content, base, sink);
  unknownRecord(s, `role/${role}`, o, line, ts, sink);
}

function start(s: GptmeState, line: SourceLine, ts: string | null, version: string | null, sink: LineSink): void {
  s.sessionId = s.folder;
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: s.parentId ? "subagent" : "main",
    startedAt: ts,
    ...(s.parentId ? { parentSessionId: s.parentId } : {}),
    ...(s.title ? { title: s.title } : {}),
    meta: { gptme_version: version, ...(s.agentId ? { subagent_id: s.agentId } : {}) },
  });
}

function system(s: GptmeState, o: Obj, content: string, base: Base, sink: LineSink): void {
  const callId = str(o["call_id"]);
  if (callId) return result(callId, s.tools[callId] ?? "", content, base, sink);
  const meta = obj(o["metadata"]) ?? {};
  if (meta["compaction_artifact"] === "intro") {
    s.compaction = base.key;
    sink.out.push({ kind: "resume_point", ...base, pointKind: "compaction", text: "" });
    return;
  }
  // The system prompt and the context gptme adds to it: only the work folder is worth keeping.
  if (o["hide"] === true || o["pinned"] === true) {
    const cwd = content.startsWith("## System Information") ? WORKDIR.exec(content)?.[1] : undefined;
    if (cwd) sink.out.push({ kind: "session", ...base, key: "session", sessionId: s.sessionId!, cwd: cwd.trim() });
    return;
  }
  sink.out.push({ kind: "message", ...base, role: "system", text: content, typed: false });
}

function user(content: string, base: Base, sink: LineSink): void {
  // gptme's own nudges arrive as user messages wrapped in `<system>`.
  if (/^<system>/.test(content)) {
    sink.out.push({ kind: "message", ...base, role: "system", text: content, typed: false });
    return;
  }
  const attached = ATTACHED.exec(content);
  const typed = attached && content.slice(0, attached.index).includes(attached[1]!.trim()) ? attached.index : -1;
  sink.out.push({
    kind: "message",
    ...base,
    role: "user",
    text: typed === -1 ? content : content.slice(0, typed),
    typed: true,
    ...(typed === -1 ? {} : { meta: { attached: content.slice(typed).trim() } }),
  });
}

function assistant(s: GptmeState, o: Obj, content: string, base: Base, sink: LineSink): void {
  const model = str(obj(o["metadata"])?.["model"]);
  if (model && model !== s.model) {
    s.model = model;
    sink.out.push({ kind: "session", ...base, key: "session", sessionId: s.sessionId!, model });
  }
  callUsage(o, model, base, sink);
  if (s.compaction !== null) {
    // The summary the compaction resumed from.
    sink.out.push({
      kind: "resume_point",
      ...base,
      key: s.compaction,
      update: true,
      pointKind: "compaction",
      text: content,
    });
    s.compaction = null;
    return;
  }
  const calls = [...content.matchAll(CALL)];
  const said = (calls[0] ? content.slice(0, calls[0].index) : content).trim();
  if (said !== "" || calls.length === 0)
    sink.out.push({ kind: "message", ...base, role: "assistant", text: said, typed: false });
  calls.forEach((m, i) => {
    const raw = content.slice(m.index + m[0].length, calls[i + 1]?.index ?? content.length).trim();
    let input: unknown = raw;
    try {
      input = JSON.parse(raw);
    } catch {
      // arguments that are not JSON are kept as written
    }
    const callId = m[2]!;
    s.tools[callId] = m[1]!;
    sink.out.push({ kind: "tool_call", ...base, key: callId, callId, name: m[1]!, input, messageKey: base.key });
  });
}

function result(callId: string, tool: string, content: string, base: Base, sink: LineSink): void {
  const code = RETURN_CODE.exec(content);
  const exitCode = code ? Number(code[1]) : null;
  const output = (tool === "shell" ? shellOutput(content) : null) ?? (tool === "read" ? readOutput(content) : null);
  const failed = FAILED.test(content) || (tool === "read" && READ_FAILED.test(content));
  sink.out.push({
    kind: "tool_result",
    ...base,
    callId,
    output: output ?? content,
    isError: failed || (exitCode !== null && exitCode !== 0),
    exitCode,
  });
}

/**
 * What a command printed, out of gptme's report of it: a header naming the command (`Ran command: \`ls\``, or the
 * command fenced when it is long), then stdout and stderr, each as one line in backticks or fenced as `stdout` and
 * `stderr`, or `No output`, then `Return code: N` when it was not 0. Null when the text is not such a report.
 */
export function shellOutput(content: string): string | null {
  const head = SHELL_HEAD.exec(content);
  if (!head) return null;
  let rest = content.slice(head[0].length);
  const parts: string[] = [];
  for (let m = SHELL_PART.exec(rest); m; m = SHELL_PART.exec(rest)) {
    parts.push(m[1] ?? m[2] ?? "");
    rest = rest.slice(m[0].length);
  }
  if (!/^(No output[^\n]*\n)?(Return code: -?\d+\n|Process interrupted[^\n]*\n)?$/.test(rest)) return null;
  return parts.join("\n");
}

/** A file as the read tool showed it: fenced, named by its path (the gutter of line numbers goes later). */
function readOutput(content: string): string | null {
  return /^(`{3,})[^\n`]+\n([\s\S]*)\n\1\s*$/.exec(content)?.[2] ?? null;
}

/**
 * `metadata.usage` of the call that wrote the message: gptme takes the cache reads and writes out of the prompt
 * itself (`input_tokens`), and `output_tokens` is the provider's completion count, reasoning inside it. `cost` is
 * gptme's own price, written only when above 0. A compaction rewrites the file with the messages it kept: the
 * message's own time (and model) names the call, so a kept message counts once.
 */
function callUsage(o: Obj, model: string | undefined, base: Base, sink: LineSink): void {
  const meta = obj(o["metadata"]);
  const u = obj(meta?.["usage"]);
  if (!u) return;
  const cost = meta?.["cost"];
  const rec = usageRecord(
    { ...base, key: `${base.key}#u` },
    {
      call: `${str(o["timestamp"]) ?? base.key}|${model ?? ""}`,
      model: model ?? null,
      input: count(u["input_tokens"]),
      output: count(u["output_tokens"]),
      cacheRead: count(u["cache_read_tokens"]),
      cacheWrite: count(u["cache_creation_tokens"]),
      reasoning: count(u["reasoning_tokens"]),
      cost: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    },
  );
  if (rec) sink.out.push(rec);
}

/** gptme writes the local time without a zone (`datetime.now().isoformat()`): read as this machine's local time. */
function localTime(v: unknown): string | null {
  if (typeof v !== "string") return null;
  // Microseconds are more than Date reads: milliseconds are kept.
  const d = new Date(v.length === 26 && v[19] === "." ? v.slice(0, 23) : v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The conversation's name, `[chat] name = "…"` in its `config.toml`. */
function titleOf(toml: string | undefined): string | null {
  const m = toml ? /^\[chat\][^[]*?^name = "((?:[^"\\]|\\.)*)"$/m.exec(toml) : null;
  if (!m?.[1]) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}

function json(text: string | undefined): Obj | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}
