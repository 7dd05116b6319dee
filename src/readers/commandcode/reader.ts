/**
 * Command Code: `~/.commandcode/projects/<project slug>/<session>.jsonl`. Its entries are pi's envelope (a `session`
 * header, format 3, then `message` entries in an `id`/`parentId` tree) around Anthropic content blocks: `text`,
 * `tool_use`, and `tool_result` in user messages, which mark no failure; a shell's output starts `Exit code: N`
 * when the command failed, and has no such line when it succeeded. `meta.source` says who wrote a user message (`user`, `tool`; none on the CLI's own
 * error notices). Beside each session, `<session>.checkpoints.jsonl` (each prompt's file snapshots) is no
 * transcript, nor is `<session>.meta.json`.
 */

import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { arr, contentText, isObj, isoTime, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { count, usageRecord } from "../usage.ts";

export interface CommandCodeState extends LineState {
  fallbackId: string;
  /** Shell calls whose result has not come yet: a result without an exit line is their success. */
  shellCalls: string[];
  /** Read calls whose result has not come yet: their output is the file behind a header and a line-number gutter. */
  readCalls: string[];
}

const SESSIONS = /[\\/]\.commandcode[\\/]projects[\\/].+\.jsonl$/;
const CHECKPOINTS = /\.checkpoints\.jsonl$/;
const EXIT = /^Exit code: (-?\d+)\n/;
const SHELL = "shell_command";
const READ = "read_file";
/** `Read 1/1 file, 5 lines` then `1: …` per line: one file's text, as the tool showed it to the model. */
const READ_ONE = /^Read 1\/1 file, \d+ lines?\n/;

export const commandCodeReader: Reader<CommandCodeState> = {
  provider: "commandcode",
  version: 2,
  // Its header is pi's, line for line: only the folder tells them apart.
  byFolder: true,
  detect: (path) => SESSIONS.test(path) && !CHECKPOINTS.test(path),
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path, ".jsonl"), shellCalls: [], readCalls: [] };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: CommandCodeState, o: Obj, line: SourceLine, sink: LineSink): void {
  const type = str(o["type"]) ?? "";
  if (type === "session" && s.sessionId === null) return start(s, o, line, sink);
  if (s.sessionId === null) start(s, { id: s.fallbackId }, line, sink);
  if (type === "message") return message(s, o, line, sink);
  unknownRecord(s, type, o, line, isoTime(o["timestamp"]), sink);
}

function start(s: CommandCodeState, o: Obj, line: SourceLine, sink: LineSink): void {
  s.sessionId = str(o["id"]) ?? s.fallbackId;
  const cwd = str(o["cwd"]);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: isoTime(o["timestamp"]),
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    startedAt: isoTime(o["timestamp"]),
    ...(cwd ? { cwd } : {}),
    meta: { format_version: o["version"] ?? null },
  });
}

function message(s: CommandCodeState, o: Obj, line: SourceLine, sink: LineSink): void {
  const m = obj(o["message"]) ?? {};
  const role = str(m["role"]);
  const key = str(o["id"]) ?? `L${line.line}`;
  const blocks = (arr(m["content"]) ?? [{ type: "text", text: str(m["content"]) ?? "" }]).filter(isObj);
  const base = { line: line.line, ts: isoTime(o["timestamp"]), parentKey: str(o["parentId"]) ?? null };
  if (role === "assistant") {
    for (const b of blocks) {
      if (b["type"] === "tool_use" && b["name"] === SHELL) s.shellCalls.push(str(b["id"]) ?? "");
      if (b["type"] === "tool_use" && b["name"] === READ) s.readCalls.push(str(b["id"]) ?? "");
    }
    callUsage(o, m, key, base, sink);
    return assistantBlocks(blocks, key, base, {}, sink);
  }
  const source = str(obj(m["meta"])?.["source"]);
  blocks.forEach((b, i) => {
    const k = blocks.length === 1 ? key : `${key}#${i}`;
    if (b["type"] === "tool_result") {
      const output = contentText(b["content"]);
      const exit = EXIT.exec(output);
      const callId = str(b["tool_use_id"]) ?? "";
      const shell = s.shellCalls.indexOf(callId);
      if (shell !== -1) s.shellCalls.splice(shell, 1);
      const read = s.readCalls.indexOf(callId);
      if (read !== -1) s.readCalls.splice(read, 1);
      sink.out.push({
        kind: "tool_result",
        ...base,
        key: k,
        callId,
        output: exit ? output.slice(exit[0].length) : read !== -1 ? fileText(output) : output,
        isError: null,
        exitCode: exit ? Number(exit[1]) : shell !== -1 ? 0 : null,
      });
      return;
    }
    const text = b["type"] === "text" ? (str(b["text"]) ?? "") : contentText([b]);
    if (text.trim() === "") return;
    // A user message nobody typed is the CLI's own notice (a failed model request).
    const typed = role === "user" && source === "user";
    sink.out.push({ kind: "message", ...base, key: k, role: typed ? "user" : "system", text, typed });
  });
}

/**
 * The entry's `usage`: the call that wrote the message, in the AI SDK's terms (its `inputTokens` holds the cache
 * reads and writes: Command Code's own cost estimate takes them out, as cairn does). `cacheWriteTokens1h` is the
 * hour-long part of the writes; `costUsd` is Command Code's estimate from its rate card. The message id names the
 * call, so an entry a resumed session copies counts once.
 */
function callUsage(o: Obj, m: Obj, key: string, base: { line: number; ts: string | null }, sink: LineSink): void {
  const u = obj(o["usage"]);
  if (!u) return;
  const read = count(u["cacheReadTokens"]);
  const write = count(u["cacheWriteTokens"]);
  const hour = Math.min(count(u["cacheWriteTokens1h"]), write);
  const cost = u["costUsd"];
  const rec = usageRecord(
    { ...base, key: `${key}#u` },
    {
      call: str(obj(m["meta"])?.["messageId"]) ?? `${key}@${base.ts ?? ""}`,
      model: str(o["model"]) ?? null,
      input: Math.max(0, count(u["inputTokens"]) - read - write),
      output: count(u["outputTokens"]),
      cacheRead: read,
      cacheWrite: write - hour,
      cacheWrite1h: hour,
      cost: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    },
  );
  if (rec) sink.out.push(rec);
}

/** A read of one file as the file's own text: its header and each line's `N: ` gutter dropped. */
function fileText(output: string): string {
  const head = READ_ONE.exec(output);
  if (!head) return output;
  const lines = output.slice(head[0].length).split("\n");
  if (!lines.every((l, i) => l.startsWith(`${i + 1}: `) || l === `${i + 1}:` || (l === "" && i === lines.length - 1)))
    return output;
  return lines.map((l) => l.slice(l.indexOf(":") + 2)).join("\n");
}
