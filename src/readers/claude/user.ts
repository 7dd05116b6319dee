/**
 * `user` lines: tool results, prompts, and what the user ran in the harness (slash commands, `!` shell commands)
 * with the output it echoed. Which of these a line's text is, `classifyUserText` decides.
 */
import { arr, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { readCompactSummary } from "./compaction.ts";
import { dequeue } from "./queue.ts";
import { sessionUpdate } from "./session.ts";
import type { ClaudeState } from "./state.ts";
import { lineMeta, noteWarmup } from "./subagent.ts";
import { toolResult } from "./tool-results.ts";
import { lineKey, parentOf, quietAlias } from "./tree.ts";
import { classifyUserText, type UserText } from "./user-text.ts";

/** One user line being read: every record it makes shares its uuid, tree parent and meta. */
interface UserLine {
  s: ClaudeState;
  o: Obj;
  line: SourceLine;
  ts: string | null;
  out: RawRecord[];
  uuid: string;
  parentKey: string | null;
  base: Record<string, unknown> | undefined;
  /** How many records were out before this line: the first one it makes takes the line's uuid. */
  first: number;
}

export function readUser(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  if (o["isCompactSummary"] === true) return readCompactSummary(s, o, line, ts, out);
  const u: UserLine = {
    s,
    o,
    line,
    ts,
    out,
    uuid: lineKey(o, line),
    parentKey: parentOf(s, o),
    base: lineMeta(o),
    first: out.length,
  };
  const { texts, images } = readBlocks(u, obj(o["message"])?.["content"]);
  if (texts.length === 0 && images === 0) {
    if (isFirst(u)) quietAlias(s, o);
    return;
  }
  readText(u, texts.join("\n"), images);
}

function isFirst(u: UserLine): boolean {
  return u.out.length === u.first;
}

/** The first record of a line takes the line's uuid (so tree parents resolve to it); later ones are numbered. */
function nextKey(u: UserLine): string {
  return isFirst(u) ? u.uuid : `${u.uuid}#${u.out.length - u.first}`;
}

/** Sends out the line's tool results; returns its texts and how many images or documents it carries. */
function readBlocks(u: UserLine, content: unknown): { texts: string[]; images: number } {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : (arr(content) ?? []);
  const texts: string[] = [];
  let images = 0;
  for (const b of blocks) {
    const block = obj(b);
    if (!block) continue;
    const btype = str(block["type"]);
    if (btype === "tool_result") {
      const at = { line: u.line.line, ts: u.ts, key: nextKey(u), parentKey: isFirst(u) ? u.parentKey : null };
      u.out.push(toolResult(block, u.o["toolUseResult"], { ...at, base: u.base }));
    } else if (btype === "text") texts.push(str(block["text"]) ?? "");
    else if (btype === "image" || btype === "document") images++;
  }
  return { texts, images };
}

function readText(u: UserLine, raw: string, images: number): void {
  const { s, line, ts, out, parentKey } = u;
  // The user line of a queued prompt is that prompt again: it stands for the queued record in the tree.
  const queued = images === 0 && isFirst(u) ? dequeue(s, raw) : null;
  if (queued !== null) {
    s.alias[u.uuid] = queued;
    return;
  }
  const rec = classifyUserText(s, raw, u.o);
  noteWarmup(s, rec, line, ts, out);
  const meta = { ...u.base, ...rec.meta, ...(images > 0 ? { images } : {}) };
  if (harnessCommand(u, rec, meta)) return;
  if (rec.notice) {
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: nextKey(u),
      parentKey,
      level: "warning",
      text: rec.text,
      meta,
    });
    return;
  }
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key: nextKey(u),
    parentKey: isFirst(u) ? parentKey : null,
    role: rec.role,
    text: rec.text,
    typed: rec.typed,
    meta,
  });
}

/**
 * What the user ran in the harness (a slash command, `<bash-input>`) is a call of its own, not a prompt, and the
 * output the harness echoes next is its result. False when the text is none of these.
 */
function harnessCommand(u: UserLine, rec: UserText, meta: Record<string, unknown>): boolean {
  const s = u.s;
  if (rec.slash) {
    userCall(u, `slash:${u.uuid}`, "slash_command", rec.text, meta);
    s.pendingSlash = `slash:${u.uuid}`;
  } else if (rec.localOutput !== undefined && s.pendingSlash) {
    userResult(u, s.pendingSlash, rec.localOutput, meta);
    s.pendingSlash = null;
  } else if (rec.bash) {
    userCall(u, `bash:${u.uuid}`, "bash", { command: rec.bash }, meta);
    s.pendingBash = `bash:${u.uuid}`;
  } else if (rec.bashOutput !== undefined && s.pendingBash) {
    const { stdout, stderr } = rec.bashOutput;
    userResult(u, s.pendingBash, stdout + (stderr ? `\n${stderr}` : ""), meta, { stderr: stderr !== "" });
    s.pendingBash = null;
  } else return false;
  return true;
}

function userCall(u: UserLine, callId: string, name: string, input: unknown, meta: Record<string, unknown>): void {
  u.out.push({
    kind: "tool_call",
    line: u.line.line,
    ts: u.ts,
    key: nextKey(u),
    parentKey: u.parentKey,
    callId,
    name,
    input,
    meta: { ...meta, user_initiated: true },
  });
}

function userResult(
  u: UserLine,
  callId: string,
  output: string,
  meta: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): void {
  u.out.push({
    kind: "tool_result",
    line: u.line.line,
    ts: u.ts,
    key: nextKey(u),
    parentKey: u.parentKey,
    callId,
    output,
    isError: null,
    exitCode: null,
    meta: { ...meta, user_initiated: true, ...extra },
  });
}
