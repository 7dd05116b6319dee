/**
 * The session a Claude Code file is: opened by its first line that names it, then updated when the folder, branch,
 * model or client version changes, and titled by `summary`, `custom-title` and `ai-title` lines.
 */
import { isObj, type Obj, str } from "../json.ts";
import type { RawRecord, SessionRecord, SourceLine } from "../types.ts";
import type { ClaudeState } from "./state.ts";
import { openSubagentSession } from "./subagent.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Emits the session record when identity or metadata first appears or changes. */
export function sessionUpdate(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  if (s.sessionId === null && !openSession(s, o, line, ts, out)) return;
  // Every line repeats these; compare before allocating anything.
  const cwd = str(o["cwd"]) ?? null;
  const branch = str(o["gitBranch"]) ?? null;
  const version = str(o["version"]) ?? null;
  const model = isObj(o["message"]) ? (str(o["message"]["model"]) ?? null) : null;
  const newCwd = cwd !== null && cwd !== s.seen.cwd;
  const newBranch = branch !== null && branch !== s.seen.branch && branch !== "HEAD";
  const newModel = model !== null && model !== s.seen.model && model !== "<synthetic>";
  const newVersion = version !== null && version !== s.seen.version;
  if (!newCwd && !newBranch && !newModel && !newVersion) return;
  const rec: SessionRecord = { kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId! };
  if (newCwd) rec.cwd = s.seen.cwd = cwd;
  if (newBranch) rec.gitBranch = s.seen.branch = branch;
  if (newModel) rec.model = s.seen.model = model;
  if (newVersion) {
    s.seen.version = version;
    rec.meta = { version };
  }
  out.push(rec);
}

/** The session's first record; false while no line has named the session yet. */
function openSession(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): boolean {
  const meta = summaryMeta(s);
  if (s.subagent) return openSubagentSession(s, o, line, ts, meta, out);
  // The file name is the session id for main files; fixtures and copies may be renamed, so the lines win.
  const id = str(o["sessionId"]) ?? (UUID_RE.test(s.fileStem) ? s.fileStem : null);
  if (id === null) return false;
  s.sessionId = id;
  out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: "main",
    startedAt: ts,
    meta,
  });
  return true;
}

function summaryMeta(s: ClaudeState): Record<string, unknown> {
  const last = s.summaries[s.summaries.length - 1];
  return last ? { summary: last.summary, summaries: s.summaries } : {};
}

/**
 * A `summary` line. Summaries can describe other sessions' leaves (leafUuid), so they are kept as metadata, not as
 * the title; all of them, since a resumed session starts with one per earlier conversation.
 */
export function readSummary(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const summary = str(o["summary"]);
  if (!summary) return;
  s.summaries = [...s.summaries.slice(-49), { summary, leaf_uuid: str(o["leafUuid"]) ?? null }];
  if (s.sessionId !== null)
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, meta: summaryMeta(s) });
}

/** A title the user set (`custom-title`) always wins; one the model wrote (`ai-title`) only names an untitled session. */
export function readTitle(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const title = str(o["customTitle"]) ?? str(o["aiTitle"]) ?? str(o["title"]);
  if (title && s.sessionId !== null && (o["type"] === "custom-title" || s.seen.title === null)) {
    s.seen.title = title;
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, title });
  }
}
