/**
 * Cursor's agent transcripts (the `cursor-agent` CLI and the editor's agent alike):
 * `~/.cursor/projects/<folder with / as ->/agent-transcripts/<id>/<id>.jsonl` (older builds: `<id>.jsonl` directly
 * there), a subagent's in `<id>/subagents/<child>.jsonl`. One line per message, `{role, message: {content}}` with
 * `text` and `tool_use` blocks, and `{type: "turn_ended", status, error?}` after a turn. The format keeps no times,
 * no ids, no model and no tool results; the prompt is wrapped in `<user_query>`, and `[REDACTED]` stands where the
 * model's reasoning was left out.
 */

import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { arr, isObj, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";

export interface CursorState extends LineState {
  fallbackId: string;
  /** The conversation a subagent's transcript belongs to (the folder its `subagents/` folder is in). */
  parent: string | null;
  /** The project folder's name under `projects/` (the working folder with `/` as `-`), until a path shows the folder. */
  slug: string | null;
}

const QUERY = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/g;
/** Text the harness puts in a user message: a block in tags, not words a person typed. */
const HARNESS = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/;
const REDACTED = /(?:^|\n\n)\[REDACTED\]\s*$/;
const KNOWN_BLOCKS = new Set(["text", "tool_use"]);
/** Records that say nothing a session needs. */
const QUIET = new Set(["metadata"]);

export const cursorReader: Reader<CursorState> = {
  provider: "cursor",
  version: 1,
  detect(path, firstLine) {
    if (path !== "") return /[\\/]agent-transcripts[\\/](?:.*[\\/])?[^\\/]+\.jsonl$/.test(path);
    return (
      /^\s*\{\s*"role"\s*:\s*"(?:user|assistant)"\s*,\s*"message"\s*:\s*\{\s*"content"\s*:/.test(firstLine) ||
      /^\s*\{\s*"type"\s*:\s*"turn_ended"\s*,\s*"status"\s*:/.test(firstLine)
    );
  },
  initialState(path) {
    const sub = /([^\\/]+)[\\/]subagents[\\/][^\\/]+$/.exec(path);
    const slug = /[\\/]projects[\\/]([^\\/]+)[\\/]agent-transcripts[\\/]/.exec(path)?.[1] ?? null;
    return { sessionId: null, unknown: {}, fallbackId: basename(path, ".jsonl"), parent: sub?.[1] ?? null, slug };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

function readLine(s: CursorState, o: Obj, line: SourceLine, sink: LineSink): void {
  if (s.sessionId === null) start(s, line, sink);
  const key = `L${line.line}`;
  const type = str(o["type"]);
  if (type !== undefined) return marker(s, type, o, key, line, sink);
  const role = str(o["role"]) ?? "";
  const blocks = (arr(obj(o["message"])?.["content"]) ?? []).filter(isObj);
  for (const b of blocks)
    if (!KNOWN_BLOCKS.has(str(b["type"]) ?? "")) unknownRecord(s, `block/${str(b["type"]) ?? ""}`, b, line, null, sink);
  if (role === "user") return prompt(blocks, key, line, sink);
  if (role === "assistant") {
    if (s.slug !== null) workingFolder(s, blocks, line, sink);
    return reply(blocks, key, line, sink);
  }
  unknownRecord(s, `role/${role}`, o, line, null, sink);
}

function start(s: CursorState, line: SourceLine, sink: LineSink): void {
  s.sessionId = s.fallbackId;
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: null,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: s.parent ? "subagent" : "main",
    ...(s.parent ? { parentSessionId: s.parent } : {}),
  });
}

/** A prompt: what the person typed is inside `<user_query>`; what the harness added around it is context. */
function prompt(blocks: Obj[], key: string, line: SourceLine, sink: LineSink): void {
  const text = textOf(blocks);
  const queries = [...text.matchAll(QUERY)].map((m) => m[1]!).filter((q) => q !== "");
  const context = queries.length > 0 ? text.replace(QUERY, "").trim() : HARNESS.test(text) ? text.trim() : "";
  const base = { line: line.line, ts: null };
  if (context !== "")
    sink.out.push({
      kind: "message",
      ...base,
      key: queries.length > 0 ? `${key}#context` : key,
      role: "system",
      text: context,
      typed: false,
      meta: { injected: "context" },
    });
  const typed = queries.length > 0 ? queries.join("\n\n") : context === "" ? text.trim() : "";
  if (typed !== "") sink.out.push({ kind: "message", ...base, key, role: "user", text: typed, typed: true });
}

/**
 * A reply: its text and tool calls. The format records no results, so each call is followed by one whose outcome
 * is unknown: the call was made and the files it names count as touched, but nothing says whether it failed.
 */
function reply(blocks: Obj[], key: string, line: SourceLine, sink: LineSink): void {
  const cleaned = blocks.map((b) =>
    b["type"] === "text" ? { ...b, text: (str(b["text"]) ?? "").replace(REDACTED, "") } : b,
  );
  if (cleaned.every((b) => b["type"] !== "tool_use" && (str(b["text"]) ?? "").trim() === "")) return;
  const before = sink.out.length;
  assistantBlocks(cleaned, key, { line: line.line, ts: null }, {}, sink);
  const calls = sink.out.slice(before).filter((r) => r.kind === "tool_call");
  for (const call of calls)
    sink.out.push({
      kind: "tool_result",
      line: line.line,
      ts: null,
      key: `${call.key}#result`,
      parentKey: call.key,
      callId: call.callId,
      output: "",
      isError: null,
      exitCode: null,
    });
}

function marker(s: CursorState, type: string, o: Obj, key: string, line: SourceLine, sink: LineSink): void {
  if (type !== "turn_ended") {
    if (!QUIET.has(type)) unknownRecord(s, type, o, line, null, sink);
    return;
  }
  const status = str(o["status"]) ?? "";
  if (status === "success") return;
  const text = str(o["error"]) ?? (status === "error" ? "The turn ended in an error" : "The turn was stopped");
  // Cursor ends a turn the person stopped with an error status too ("User aborted request").
  const stopped = status === "aborted" || status === "cancelled" || /\baborted\b/i.test(text);
  if (status !== "error" && !stopped) return unknownRecord(s, `turn_ended/${status}`, o, line, null, sink);
  sink.out.push({
    kind: "notice",
    line: line.line,
    ts: null,
    key,
    level: stopped ? "warning" : "error",
    text,
    ...(stopped ? { meta: { interrupt: true } } : {}),
  });
}

const PATH_KEYS = ["path", "file_path", "target_file", "working_directory", "target_directory"];

/**
 * The folder the conversation worked in. The format does not say it, but its project folder's name is that folder
 * with its separators as `-`: the first absolute path a tool call names that starts with a folder of that name
 * shows it (`/Users/me/my-app/src/a.ts` for `Users-me-my-app`).
 */
function workingFolder(s: CursorState, blocks: readonly Obj[], line: SourceLine, sink: LineSink): void {
  const want = squash(s.slug!);
  for (const b of blocks) {
    const input = obj(b["input"]);
    if (b["type"] !== "tool_use" || !input) continue;
    for (const k of PATH_KEYS) {
      const path = str(input[k]);
      const folder = path ? folderNamed(path, want) : null;
      if (folder === null || s.sessionId === null) continue;
      s.slug = null;
      sink.out.push({
        kind: "session",
        line: line.line,
        ts: null,
        key: "session",
        sessionId: s.sessionId,
        cwd: folder,
      });
      return;
    }
  }
}

function folderNamed(path: string, want: string): string | null {
  if (!/^(?:\/|[A-Za-z]:[\\/])/.test(path)) return null;
  for (let i = 1; i <= path.length; i++) {
    if (i < path.length && path[i] !== "/" && path[i] !== "\\") continue;
    if (squash(path.slice(0, i)) === want) return path.slice(0, i);
  }
  return null;
}

/** A path as a project folder's name compares: letters and digits, the rest one `-`. */
function squash(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function textOf(blocks: readonly Obj[]): string {
  return blocks
    .filter((b) => b["type"] === "text")
    .map((b) => str(b["text"]) ?? "")
    .join("\n");
}
