/**
 * Roo Code: one task per folder, `<task id>/api_conversation_history.json`, the conversation as the model is sent
 * it (one JSON array rewritten as the task goes on: `{role, content, ts}` with Anthropic-style blocks, a condensed
 * summary marked `isSummary`). It is the record of what was asked, called and answered; `ui_messages.json` beside it
 * (read as context, see ui-messages.ts) adds the start time, every condense and the harness's failures, placed by
 * time. Tool calls are XML in the reply's text in older releases (xml-calls.ts), `tool_use` blocks in newer ones.
 */
import { basename, dirname, join } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { assistantBlocks } from "../assistant-blocks.ts";
import { isObj, isoTime, type Obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { type UiFacts, uiFacts } from "./ui-messages.ts";
import { type Pending, userTurn } from "./user-turn.ts";
import { splitReply } from "./xml-calls.ts";

export interface RooState extends LineState {
  taskId: string;
  ui: UiFacts | null;
}

const TASK_FILE = /rooveterinaryinc\.roo-cline[\\/]tasks[\\/][^\\/]+[\\/]api_conversation_history\.json$/i;
const CONVERSATION = "api_conversation_history.json";

export const rooReader: Reader<RooState> = {
  provider: "roo",
  version: 1,
  wholeFile: (path) => path.endsWith(CONVERSATION),
  detect(path, head) {
    if (path !== "") return TASK_FILE.test(path);
    // Roo Code's environment details name the mode by its slug; Cline's and others' do not.
    return /^\s*\[\s*\{\s*"role"/.test(head) && /<slug>[^<]*<\/slug>/.test(head);
  },
  context: (path) => (path.endsWith(CONVERSATION) ? [join(dirname(path), "ui_messages.json")] : []),
  contextAsBytes: (file) => file.endsWith("ui_messages.json"),
  initialState(path, context = {}) {
    const ui = uiFacts(context[join(dirname(path), "ui_messages.json")]);
    return { sessionId: null, unknown: {}, taskId: basename(dirname(path)), ui };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, gather);
  },
};

function gather(s: RooState, line: SourceLine, sink: LineSink): boolean {
  const whole = wholeDocument(line, sink);
  if (!whole) return true;
  const at = { text: "", line: line.line };
  if (!Array.isArray(whole.doc)) {
    sink.problems.push(problem(at, "not a Roo Code conversation (a JSON array)"));
    return true;
  }
  read(s, whole.doc, at, sink);
  return true;
}

function read(s: RooState, messages: unknown[], at: SourceLine, sink: LineSink): void {
  s.sessionId = s.taskId;
  const first = messages.find(isObj);
  const startedAt = s.ui?.startedAt ?? isoTime(first?.["ts"]);
  const session = { kind: "session" as const, line: at.line, key: "session", sessionId: s.sessionId };
  sink.out.push({ ...session, ts: startedAt, sessionKind: "main", ...(startedAt ? { startedAt } : {}) });
  const events = [...(s.ui?.events ?? [])];
  const pending: Pending[] = [];
  let cwd: string | null = null;
  const flush = (until: string | null) => {
    while (events.length > 0 && (until === null || events[0]!.ts <= until)) {
      const e = events.shift()!;
      const base = { line: at.line, ts: e.ts, key: `ui@${e.ts}` };
      if (e.kind === "compaction")
        sink.out.push({ kind: "resume_point", ...base, pointKind: "compaction", text: e.text });
      else sink.out.push({ kind: "notice", ...base, level: e.kind, text: e.text });
    }
  };
  messages.forEach((m, i) => {
    if (!isObj(m)) {
      sink.problems.push(problem(at, `message ${i} is not an object`));
      return;
    }
    const ts = isoTime(m["ts"]);
    if (ts) flush(ts);
    const found = message(s, m, `m${i}`, { line: at.line, ts }, pending, at, sink);
    if (found && cwd === null) {
      cwd = found;
      sink.out.push({ ...session, ts, cwd });
    }
  });
  flush(null);
}

/** Emits one message's records; returns the workspace folder a user turn's environment details name. */
function message(
  s: RooState,
  m: Obj,
  key: string,
  base: { line: number; ts: string | null },
  pending: Pending[],
  at: SourceLine,
  sink: LineSink,
): string | null {
  const role = str(m["role"]);
  const blocks = (typeof m["content"] === "string" ? [{ type: "text", text: m["content"] }] : m["content"]) as unknown;
  const list = Array.isArray(blocks) ? blocks.filter(isObj) : [];
  if (m["isSummary"] === true) {
    // The summary a condense left; without the panel's list it is the only trace of that condense.
    if (!s.ui) {
      const text = list.map((b) => str(b["text"]) ?? "").join("\n");
      sink.out.push({ kind: "resume_point", ...base, key, pointKind: "compaction", text });
    }
    return null;
  }
  if (role === "user") return userTurn(list, key, base, pending, sink).cwd;
  if (role !== "assistant") {
    unknownRecord(s, `message role '${role ?? ""}'`, m, at, base.ts, sink);
    return null;
  }
  const known = new Set(["text", "reasoning", "thinking", "tool_use"]);
  for (const b of list)
    if (!known.has(str(b["type"]) ?? "")) unknownRecord(s, `block '${str(b["type"]) ?? ""}'`, b, at, base.ts, sink);
  reply(list, key, base, pending, sink);
  return null;
}

/** An assistant turn: native `tool_use` blocks as they are, XML calls taken out of its text. */
function reply(
  blocks: Obj[],
  key: string,
  base: { line: number; ts: string | null },
  pending: Pending[],
  sink: LineSink,
): void {
  const out: Obj[] = [];
  const thoughts: string[] = [];
  let n = 0;
  for (const b of blocks) {
    if (b["type"] === "reasoning") thoughts.push(str(b["text"]) ?? "");
    if (b["type"] === "thinking") out.push(b);
    if (b["type"] === "tool_use") {
      out.push(b);
      pending.push({ callId: str(b["id"]) ?? "", name: str(b["name"]) ?? "" });
    }
    if (b["type"] !== "text") continue;
    const split = splitReply(str(b["text"]) ?? "");
    if (split.thinking) thoughts.push(split.thinking);
    if (split.words) out.push({ type: "text", text: split.words });
    for (const c of split.calls) {
      const callId = `${key}#x${n++}`;
      out.push({ type: "tool_use", id: callId, name: c.name, input: c.input });
      pending.push({ callId, name: c.name });
    }
  }
  const thinking = thoughts.filter((t) => t.trim() !== "").join("\n");
  assistantBlocks(out, key, base, thinking ? { thinking } : {}, sink);
}
