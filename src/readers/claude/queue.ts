/**
 * `queue-operation` lines: a prompt queued while the agent works (`enqueue`). 2.1.x queues every prompt, then writes
 * it again as a user line; that line is matched back to the queued record (`dequeue`) instead of counting twice.
 */
import { type Obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import { sessionUpdate } from "./session.ts";
import type { ClaudeState } from "./state.ts";
import { INJECTED_RE } from "./user-text.ts";

/**
 * The queued words are the prompt (mid-turn steering that is `remove`d never gets a user line); a slash command is
 * left to its `<command-name>` line, and harness text (a background agent's `<task-notification>`) is the harness's.
 */
export function readQueued(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const content = str(o["content"]);
  if (str(o["operation"]) !== "enqueue" || !content || content.trim() === "") return;
  if (/^\/[A-Za-z][\w:-]*(\s|$)/.test(content.trim())) return;
  const key = `q${line.line}`;
  s.queued = [...s.queued.filter((q) => typeof q === "object").slice(-15), { text: content, key }];
  const harness = content.replace(INJECTED_RE, "").trim() === "";
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    role: harness ? "system" : "user",
    text: content,
    typed: !harness,
    meta: harness ? { queued: true, injected: /<([a-z_-]+)>/.exec(content)?.[1] ?? "markup" } : { queued: true },
  });
}

/** The key of the queued record a user line's text repeats (taken off the queue), or null. */
export function dequeue(s: ClaudeState, raw: string): string | null {
  const text = raw.trim();
  const i = s.queued.findIndex((q) => typeof q === "object" && q.text.trim() === text);
  if (i === -1) return null;
  const key = s.queued[i]!.key;
  s.queued.splice(i, 1);
  return key;
}
