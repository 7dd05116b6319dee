/**
 * Cline CLI: `~/.cline/data/sessions/<id>/<id>.messages.json`, one JSON document rewritten as the session grows
 * (`sessionId`, `agent`, `origin`, `system_prompt`, `messages[]` of `{id, role, ts, content}` with Anthropic-style
 * blocks), and one `agent_<id>.messages.json` per subagent beside it (`agent: "subagent"`,
 * `origin.parentThreadId`). What the user typed is wrapped in `<user_input mode="act">`. A tool result has no
 * error flag: a failure is `success: false` in its payload (per-command results, or a JSON object as a string).
 * The `<id>.json` beside it is metadata (cwd, model), not read here: the folder is also in the system prompt.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { arr, contentText, isObj, isoTime, type Obj, obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface ClineState extends LineState {
  fallbackId: string;
}

/** The folder Cline works in, as its system prompt's environment list states it ("4. Working Directory: /path"). */
const WORKING_DIRECTORY = /^\s*(?:\d+\.\s*)?Working Directory: (\/[^\n]*)$/m;
const WRAPPED = /^\s*<user_input(?:\s+mode="([^"]*)")?[^>]*>([\s\S]*)<\/user_input>\s*$/;

export const clineReader: Reader<ClineState> = {
  provider: "cline",
  version: 4,
  wholeFile: (path) => path.endsWith(".json"),
  detect(path, head) {
    if (/[\\/]\.cline[\\/]data[\\/]sessions[\\/][^\\/]+[\\/][^\\/]+\.messages\.json$/.test(path)) return true;
    if (path !== "") return false;
    return /"agent"\s*:\s*"(lead|subagent)"/.test(head) && /"origin"\s*:/.test(head);
  },
  initialState(path) {
    return {
      sessionId: null,
      unknown: {},
      fallbackId: basename(path).replace(/\.messages\.json$/, ""),
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, gather);
  },
};

/**
 * Reads the document, which comes whole as one line (`wholeFile`). One that does not parse (cut short while Cline
 * rewrote it, or damaged) is a problem; it is read again once the file changes.
 */
function gather(s: ClineState, line: SourceLine, sink: LineSink): boolean {
  const whole = wholeDocument(line, sink);
  if (!whole) return true;
  const { doc } = whole;
  const at = { text: "", line: line.line };
  if (!isObj(doc)) {
    sink.problems.push(problem(at, "not a Cline session document"));
    return true;
  }
  read(s, doc, at, sink);
  return true;
}

function read(s: ClineState, doc: Obj, at: SourceLine, sink: LineSink): void {
  const origin = obj(doc["origin"]) ?? {};
  const sub = doc["agent"] === "subagent";
  s.sessionId = str(doc["sessionId"]) ?? s.fallbackId;
  const parent = str(origin["parentThreadId"]) ?? null;
  const prompt = str(doc["system_prompt"]);
  const cwd = prompt ? (WORKING_DIRECTORY.exec(prompt)?.[1]?.trim() ?? null) : null;
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: null,
    key: "session",
    sessionId: s.sessionId,
    ...(cwd ? { cwd } : {}),
    sessionKind: sub ? "subagent" : "main",
    ...(sub && parent ? { parentSessionId: parent } : {}),
    meta: {
      cline_version: origin["version"] ?? null,
      ...(typeof doc["system_prompt"] === "string" ? { system_prompt: { chars: doc["system_prompt"].length } } : {}),
    },
  });
  const messages = arr(doc["messages"]);
  if (!messages) {
    sink.problems.push(problem(at, "Cline session without messages"));
    return;
  }
  messages.forEach((m, i) => {
    if (!isObj(m)) {
      sink.problems.push(problem(at, `message ${i} is not an object`));
      return;
    }
    message(s, m, i, sub, at, sink);
  });
}

function message(s: ClineState, m: Obj, i: number, sub: boolean, at: SourceLine, sink: LineSink): void {
  const role = str(m["role"]);
  const key = str(m["id"]) ?? `m${i}`;
  const ts = isoTime(m["ts"]);
  const base = { line: at.line, ts };
  const blocks = (
    typeof m["content"] === "string" ? [{ type: "text", text: m["content"] }] : (arr(m["content"]) ?? [])
  ).filter(isObj);
  if (role === "assistant") {
    const model = str(obj(m["modelInfo"])?.["id"]);
    callUsage(m, key, model, base, sink);
    return assistantBlocks(blocks, key, base, model ? { model } : {}, sink);
  }
  if (role !== "user") {
    unknownRecord(s, `message role '${role ?? ""}'`, m, at, ts, sink);
    return;
  }
  blocks.forEach((b, j) => {
    const k = blocks.length === 1 ? key : `${key}#${j}`;
    if (b["type"] === "tool_result") {
      result(b, k, base, sink);
      return;
    }
    if (b["type"] !== "text") {
      unknownRecord(s, `block '${str(b["type"]) ?? ""}'`, b, at, ts, sink);
      return;
    }
    const raw = str(b["text"]) ?? "";
    const wrapped = WRAPPED.exec(raw);
    const text = wrapped ? (wrapped[2] ?? "").trim() : raw;
    if (text.trim() === "") return;
    // The wrapper marks the user's words; a subagent's task is the lead model's, other text is the harness's.
    const typed = wrapped !== null || (!sub && !/^\s*</.test(raw));
    sink.out.push({
      kind: "message",
      ...base,
      key: k,
      role: "user",
      text,
      typed,
      ...(wrapped?.[1] ? { meta: { mode: wrapped[1] } } : {}),
    });
  });
}

/** Cline's verdict is inside the payload: `success` per command (a list) or on the one result object. */
/**
 * An assistant message's `metrics`: the tokens of the call that wrote it, the cache reads and writes beside the
 * input as Cline counts them (its session file's `usage` only sums them). The file is rewritten whole as it grows:
 * the message id names the call.
 */
function callUsage(
  m: Obj,
  key: string,
  model: string | undefined,
  base: { line: number; ts: string | null },
  sink: LineSink,
): void {
  const u = obj(m["metrics"]);
  if (!u) return;
  const cost = u["cost"];
  const rec = usageRecord(
    { ...base, key: `${key}#u` },
    {
      call: str(m["id"]) ?? null,
      model: model ?? null,
      input: count(u["inputTokens"]),
      output: count(u["outputTokens"]),
      cacheRead: count(u["cacheReadTokens"]),
      cacheWrite: count(u["cacheWriteTokens"]),
      cost: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    },
  );
  if (rec) sink.out.push(rec);
}

function result(b: Obj, key: string, base: { line: number; ts: string | null }, sink: LineSink): void {
  let payload: unknown = b["content"];
  if (typeof payload === "string") {
    try {
      payload = JSON.parse(payload);
    } catch {
      // plain text: no verdict in it
    }
  }
  const items = (Array.isArray(payload) ? payload : [payload]).filter(isObj);
  const verdicts = items.map((x) => x["success"]).filter((v) => typeof v === "boolean");
  const output =
    items.length > 0 && items.some((x) => "result" in x || "error" in x)
      ? items
          .map((x) => [str(x["result"]), str(x["error"])].filter((t) => t !== undefined && t !== "").join("\n"))
          .join("\n")
      : typeof b["content"] === "string"
        ? b["content"]
        : contentText(b["content"]);
  const code = /\[Command exited with code (-?\d+)\]|exited with code (-?\d+)/.exec(output);
  sink.out.push({
    kind: "tool_result",
    ...base,
    key,
    callId: str(b["tool_use_id"]) ?? "",
    output: str(b["name"]) === "read_files" ? withoutGutter(output) : withoutExitBanner(output),
    isError: verdicts.length === 0 ? null : verdicts.includes(false),
    exitCode: code ? Number(code[1] ?? code[2]) : null,
  });
}

/** A command's output as it printed it: without Cline's `[Command exited with code N]` banner and stream labels. */
function withoutExitBanner(text: string): string {
  return text.replace(/^\[Command exited with code -?\d+\]\n+/, "").replace(/^\[(stderr|stdout)\]\n/gm, "");
}

/** A file as it is: `read_files` numbers every line (`12 | text`). */
function withoutGutter(text: string): string {
  const lines = text.split("\n");
  if (!lines.every((l) => l === "" || /^\d+ \| ?/.test(l))) return text;
  const body = lines.map((l) => l.replace(/^\d+ \| ?/, "")).join("\n");
  return body.endsWith("\n") ? body : `${body}\n`;
}
