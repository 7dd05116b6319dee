/**
 * Oh My Pi (`omp`), a fork of pi, writes pi's session entries (format v3) with two of its own: a `title` line before
 * the header (the session's name, rewritten in place under a fixed width), and `session_init`, which opens a
 * subagent's session (its system prompt, task and tools; the task comes again as the first user message). A
 * subagent's session is a file in a folder named after its parent's file (`<session>/<Name>.jsonl`); its header
 * names the parent's file as a fork's would. Its reminders to the model are messages of the `developer` role.
 */
import { contentText, isoTime, type Obj, obj, str } from "../json.ts";
import { type LineSink, parseLines } from "../line-loop.ts";
import { type PiState, piReader, readEntry } from "../pi-format/reader.ts";
import { treeParent } from "../pi-format/tree.ts";
import type { Reader, SourceLine } from "../types.ts";

/** A session of omp's, in its agent folder (`~/.omp/agent`). */
const SESSIONS = /[\\/]\.omp[\\/]agent[\\/]sessions[\\/].+\.jsonl$/;
/** A subagent's: one folder deeper than the project's folder of sessions. */
const SUBAGENT = /[\\/]agent[\\/]sessions[\\/][^\\/]+[\\/].+[\\/][^\\/]+\.jsonl$/;
/** Entries that hold nothing of the conversation. */
const QUIET = new Set(["title", "session_init"]);

export interface OmpState extends PiState {
  subagent: boolean;
}

function readOmpEntry(s: OmpState, o: Obj, line: SourceLine, sink: LineSink): void {
  const type = str(o["type"]);
  if (type !== undefined && QUIET.has(type)) {
    // Its children point at what it hangs from, as pi's entries that become no event do.
    const id = str(o["id"]);
    if (id) s.alias[id] = treeParent(s, str(o["parentId"]) ?? null);
    return;
  }
  const message = obj(o["message"]);
  if (type === "message" && str(message?.["role"]) === "developer" && s.sessionId !== null)
    return readReminder(s, o, message ?? {}, line, sink);
  const header = type === "session" && s.sessionId === null;
  readEntry(s, o, line, sink);
  if (!header || !s.subagent || s.sessionId === null) return;
  const record = sink.out.findLast((r) => r.kind === "session");
  if (record?.kind === "session") record.sessionKind = "subagent";
}

/** A reminder omp put in the model's context: text nobody typed, in the session's tree. */
function readReminder(s: OmpState, o: Obj, m: Obj, line: SourceLine, sink: LineSink): void {
  const id = str(o["id"]);
  const key = id ?? `L${line.line}`;
  sink.out.push({
    kind: "message",
    line: line.line,
    ts: isoTime(o["timestamp"]),
    key,
    parentKey: treeParent(s, str(o["parentId"]) ?? null),
    role: "system",
    text: contentText(m["content"]),
    typed: false,
    meta: { role: "developer" },
  });
  s.lastKey = key;
}

export const ompReader: Reader<OmpState> = {
  provider: "omp",
  version: 2,
  // Its files are pi's: only the folder tells them apart.
  byFolder: true,
  detect: (path) => SESSIONS.test(path),
  initialState(path) {
    return { ...piReader.initialState(path), subagent: SUBAGENT.test(path) };
  },
  parse(lines, state) {
    const s: OmpState = { ...state, alias: { ...state.alias }, unknown: { ...state.unknown } };
    return parseLines(lines, s, readOmpEntry);
  },
};
