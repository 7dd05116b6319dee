/**
 * mini-swe-agent: a trajectory is one pretty-printed JSON document (`trajectory_format` `mini-swe-agent-1.x`),
 * rewritten after every step: `info` (`mini_version`, the run's `config`: the model, and the agent's templates) and
 * `messages[]` in the model's chat shape plus an `extra` each. The first user message is the task rendered into the
 * agent's `instance_template`; later ones are the harness's (`extra.interrupt_type`: a format error, a rejection) or
 * the person's (`UserNewTask`: "The user added a new task: …"). Commands are `bash` tool calls (or, for text-based
 * models, `extra.actions` of the assistant message), their results `tool` messages (or `user` ones) whose `extra`
 * holds `raw_output`, `returncode` and `exception_info`; the agent ends with an `exit` message. The document names no
 * session and no folder: its session is the file and the time its first step started.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, isObj, type Obj, obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface MiniState extends LineState {
  fallbackId: string;
}

/** The start of a trajectory as `json.dumps(…, indent=2)` writes it: `info`, then its `model_stats`. */
const HEAD = /^\{\s*"info"\s*:\s*\{\s*"model_stats"\s*:\s*\{\s*"instance_cost"\s*:/;
const TRAJECTORY = /[\\/]mini-swe-agent[\\/][^\\/]+\.traj\.json$/;
/** The result mini writes for a command it did not run (the one that submitted, or after one that did). */
const NOT_EXECUTED = "action was not executed";
const NEW_TASK = /^The user added a new task: /;

export const miniReader: Reader<MiniState> = {
  provider: "mini",
  version: 2,
  wholeFile: (path) => path.endsWith(".traj.json"),
  detect(path, head) {
    if (HEAD.test(head)) return true;
    return path !== "" && head === "" && TRAJECTORY.test(path);
  },
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path, ".traj.json") };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, readDocument);
  },
};

function readDocument(s: MiniState, line: SourceLine, sink: LineSink): boolean {
  const parsed = wholeDocument(line, sink);
  if (!parsed) return true;
  const doc = parsed.doc;
  const at = { text: "", line: line.line };
  const messages = isObj(doc) ? arr(doc["messages"]) : undefined;
  if (!isObj(doc) || !messages) {
    sink.problems.push(problem(at, "not a mini-swe-agent trajectory"));
    return true;
  }
  const info = obj(doc["info"]) ?? {};
  const config = obj(info["config"]) ?? {};
  const start =
    messages
      .filter(isObj)
      .map(timeOf)
      .find((t) => t !== null) ?? null;
  // One file holds one run at a time: the run is told apart by when it started.
  s.sessionId = start ? `${s.fallbackId}-${start}` : s.fallbackId;
  const model = str(obj(config["model"])?.["model_name"]);
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: start,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    ...(model ? { model } : {}),
    startedAt: start,
    meta: {
      mini_version: info["mini_version"] ?? null,
      trajectory_format: doc["trajectory_format"] ?? null,
      exit_status: info["exit_status"] ?? null,
    },
  });
  const template = str(obj(config["agent"])?.["instance_template"]) ?? null;
  const pending: string[] = [];
  messages.forEach((m, i) => {
    if (isObj(m)) message(s, m, i, template, pending, at, sink);
    else sink.problems.push(problem(at, `message ${i} is not an object`));
  });
  return true;
}

function timeOf(m: Obj): string | null {
  const t = obj(m["extra"])?.["timestamp"];
  return typeof t === "number" && Number.isFinite(t) ? new Date(t * 1000).toISOString() : null;
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  return (arr(content) ?? [])
    .filter(isObj)
    .map((b) => str(b["text"]) ?? "")
    .join("\n");
}

/**
 * The task inside the first user message: the literal text the template puts before `{{task}}` is cut from its
 * start, and the message ends where the literal text after it begins. Null when the template does not say.
 */
export function taskOf(rendered: string, template: string | null): string | null {
  const at = template?.indexOf("{{task}}") ?? -1;
  if (template === null || at === -1) return null;
  const before = template.slice(0, at);
  if (/\{[{%#]/.test(before) || !rendered.startsWith(before)) return null;
  const rest = template.slice(at + "{{task}}".length);
  const after = rest.slice(0, rest.search(/\{[{%#]|$/));
  const body = rendered.slice(before.length);
  const end = after === "" ? -1 : body.indexOf(after);
  return (end === -1 ? body : body.slice(0, end)).trim();
}

function message(
  s: MiniState,
  m: Obj,
  i: number,
  template: string | null,
  pending: string[],
  at: SourceLine,
  sink: LineSink,
): void {
  const role = str(m["role"]) ?? "";
  const extra = obj(m["extra"]) ?? {};
  const key = `m${i}`;
  const base = { line: at.line, ts: timeOf(m) };
  const body = text(m["content"]);
  if (role === "system") {
    sink.out.push({ kind: "message", ...base, key, role: "system", text: body, typed: false });
    return;
  }
  if (role === "assistant") return assistant(m, extra, key, base, pending, sink);
  if (role === "tool" || (role === "user" && "raw_output" in extra)) {
    const callId = str(m["tool_call_id"]) ?? pending.shift() ?? key;
    return result(extra, body, key, callId, base, sink);
  }
  if (role === "user") {
    const interrupt = str(extra["interrupt_type"]) ?? null;
    const task = interrupt === null ? taskOf(body, template) : null;
    const typed = interrupt === null || /^User/.test(interrupt);
    const said = task ?? (interrupt === "UserNewTask" ? body.replace(NEW_TASK, "") : body);
    sink.out.push({
      kind: "message",
      ...base,
      key,
      role: typed ? "user" : "system",
      text: said,
      typed,
      ...(interrupt ? { meta: { interrupt_type: interrupt } } : {}),
    });
    for (const [j, a] of (arr(extra["actions"]) ?? []).filter(isObj).entries()) {
      // A command the person ran in human mode.
      const id = `${key}#a${j}`;
      pending.push(id);
      const input = { command: str(a["command"]) ?? "" };
      sink.out.push({
        kind: "tool_call",
        ...base,
        key: id,
        callId: id,
        name: "bash",
        input,
        meta: { user_initiated: true },
      });
    }
    return;
  }
  if (role === "exit") {
    const status = str(extra["exit_status"]) ?? "";
    const failed = status !== "Submitted" && status !== "";
    const said = str(extra["exception_str"]) ?? body;
    sink.out.push({
      kind: "notice",
      ...base,
      key,
      level: failed ? "error" : "info",
      text: said ? `${status}: ${said}` : status,
      meta: { exit_status: status },
    });
    return;
  }
  unknownRecord(s, `message/${role}`, m, at, base.ts, sink);
}

function assistant(
  m: Obj,
  extra: Obj,
  key: string,
  base: { line: number; ts: string | null },
  pending: string[],
  sink: LineSink,
): void {
  callUsage(extra, key, base, sink);
  const body = text(m["content"]);
  const calls = (arr(m["tool_calls"]) ?? []).filter(isObj);
  if (body.trim() !== "" || calls.length === 0)
    sink.out.push({ kind: "message", ...base, key, role: "assistant", text: body, typed: false });
  calls.forEach((c, j) => {
    const fn = obj(c["function"]) ?? {};
    const id = str(c["id"]) ?? `${key}#c${j}`;
    const raw = str(fn["arguments"]) ?? "";
    let input: unknown = raw;
    try {
      input = JSON.parse(raw);
    } catch {
      // arguments that are not JSON are kept as written
    }
    sink.out.push({
      kind: "tool_call",
      ...base,
      key: id,
      callId: id,
      name: str(fn["name"]) ?? "bash",
      input,
      messageKey: key,
    });
  });
  if (calls.length > 0) return;
  // A text-based model's commands are parsed from its reply; their results follow as user messages, in order.
  for (const [j, a] of (arr(extra["actions"]) ?? []).filter(isObj).entries()) {
    const id = `${key}#a${j}`;
    pending.push(id);
    const input = { command: str(a["command"]) ?? "" };
    sink.out.push({ kind: "tool_call", ...base, key: id, callId: id, name: "bash", input, messageKey: key });
  }
}

/**
 * The call behind an assistant message: `extra.response` is LiteLLM's response as mini received it, whose
 * `usage.prompt_tokens` holds the cache reads (`prompt_tokens_details.cached_tokens`, or Anthropic's
 * `cache_read_input_tokens`) and writes (`cache_creation_input_tokens`); `completion_tokens` holds the reasoning.
 * `extra.cost` is LiteLLM's price, 0 when it could not price the model (not a free call). The response id names
 * the call: the trajectory is rewritten after every step.
 */
function callUsage(extra: Obj, key: string, base: { line: number; ts: string | null }, sink: LineSink): void {
  const response = obj(extra["response"]);
  const u = obj(response?.["usage"]);
  if (!u) return;
  const details = obj(u["prompt_tokens_details"]);
  const read = count(details?.["cached_tokens"]) || count(u["cache_read_input_tokens"]);
  const write = count(u["cache_creation_input_tokens"]) || count(details?.["cache_creation_tokens"]);
  const cost = extra["cost"];
  const rec = usageRecord(
    { ...base, key: `${key}#u` },
    {
      call: str(response?.["id"]) ?? null,
      model: str(response?.["model"]) ?? null,
      input: Math.max(0, count(u["prompt_tokens"]) - read - write),
      output: count(u["completion_tokens"]),
      cacheRead: read,
      cacheWrite: write,
      reasoning: count(obj(u["completion_tokens_details"])?.["reasoning_tokens"]),
      cost: typeof cost === "number" && Number.isFinite(cost) && cost > 0 ? cost : null,
    },
  );
  if (rec) sink.out.push(rec);
}

function result(
  extra: Obj,
  body: string,
  key: string,
  callId: string,
  base: { line: number; ts: string | null },
  sink: LineSink,
): void {
  const exception = str(extra["exception_info"]) ?? "";
  const code = extra["returncode"];
  const skipped = exception === NOT_EXECUTED;
  const output = str(extra["raw_output"]) ?? body;
  sink.out.push({
    kind: "tool_result",
    ...base,
    key: `${key}#result`,
    callId,
    output: exception && !skipped ? `${output}${output ? "\n" : ""}${exception}` : output,
    // A timeout or an error running it is an exception; a command that was not run did not fail.
    isError: skipped ? null : exception !== "",
    exitCode: !skipped && typeof code === "number" ? code : null,
    ...(skipped ? { meta: { not_executed: true } } : {}),
  });
}
