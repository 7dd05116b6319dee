/**
 * Response items that are words: `message` (a prompt, a reply, developer or system text, or context Codex injects
 * as a user) and `reasoning` (the model's summary of its thinking).
 */
import { arr, contentText, type Obj, obj, problem, str } from "../json.ts";
import type { LineProblem, MessageRecord, RawRecord } from "../types.ts";
import { injectedKind, isInjected } from "./injected.ts";
import type { CodexState, ItemAt } from "./state.ts";
import { flushPending, phaseMeta } from "./twins.ts";

export function readMessageItem(s: CodexState, p: Obj, at: ItemAt, out: RawRecord[], problems: LineProblem[]): void {
  const { line, ts, key } = at;
  const role = str(p["role"]);
  const text = contentText(p["content"]);
  if (role === "user") return readUserItem(s, text, at, out);
  if (role === "assistant") return readAssistantItem(s, p, text, at, out);
  if (role === "developer" || role === "system") {
    out.push({ kind: "message", line: line.line, ts, key, role, text, typed: false });
    return;
  }
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

/** Injected context goes out at once; a prompt waits for its `event_msg` twin. */
function readUserItem(s: CodexState, text: string, at: ItemAt, out: RawRecord[]): void {
  const { line, ts, key, envelope } = at;
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
    return;
  }
  flushPending(s, out);
  s.pending = {
    kind: "user",
    envelope,
    record: { kind: "message", line: line.line, ts, key, role: "user", text, typed: true },
  };
}

function readAssistantItem(s: CodexState, p: Obj, text: string, at: ItemAt, out: RawRecord[]): void {
  const { line, ts, key, envelope } = at;
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
}

export function readReasoning(p: Obj, at: ItemAt, out: RawRecord[]): void {
  const { line, ts, key } = at;
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
}
