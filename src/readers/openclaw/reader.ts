/**
 * OpenClaw builds on pi's agent core and writes pi's session entries (format v3, `id`/`parentId` trees), in two
 * stores. Since 2026.8 they are rows of the agent's SQLite database (`agents/<agent>/agent/openclaw-agent.sqlite`:
 * `transcript_events.event_json` per session, ordered by `seq`, or from 2026.9.3 for a larger entry its UTF-8
 * compressed with zstd in `event_zstd`; `session_windows` says which session a subagent's parent is, by session
 * key; `schema_meta.app_version` names the OpenClaw that wrote it). Before, each session was a pi JSONL file in
 * `agents/<agent>/sessions/`, and `sessions.json` beside them (the session index) named a subagent's parent
 * (`spawnedBy`). Both are read by pi's entry rules; what OpenClaw adds is read here: the shell's
 * exit code in a tool result's `details`, and which sessions are subagents.
 */

import { basename, dirname, join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import { cloneJson } from "../../common/clone.ts";
import { arr, num, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines } from "../line-loop.ts";
import { type PiState, piReader, readEntry } from "../pi-format/reader.ts";
import type { RawRecord, Reader, SourceLine } from "../types.ts";

/** Where an OpenClaw state folder (`~/.openclaw`, a profile's `~/.openclaw-<name>`) keeps an agent's JSONL sessions. */
const SESSIONS_FOLDER = /[\\/]\.openclaw(-[\w.-]+)?[\\/]agents[\\/][^\\/]+[\\/]sessions[\\/][^\\/]+\.jsonl$/;
/** Run traces beside the sessions (`<id>.trajectory.jsonl`): not conversations. */
const TRAJECTORY = /\.trajectory\.jsonl$/;

/** A pi entry as OpenClaw writes it: pi's records, with the exit code its shell tool keeps in `details`. */
/** A subagent's first message: what OpenClaw tells it of its situation, then the task its parent gave it. */
const SUBAGENT_TASK = /^\s*\[Subagent Context\][\s\S]*?^\[Subagent Task\][ \t]*$\s*([^\n]+)/m;

function readOpenClawEntry(s: PiState, o: Obj, line: SourceLine, sink: LineSink): void {
  const before = sink.out.length;
  readEntry(s, o, line, sink);
  for (let i = before; i < sink.out.length; i++) {
    const r = sink.out[i]!;
    const task = r.kind === "message" && r.role === "user" ? SUBAGENT_TASK.exec(r.text)?.[1]?.trim() : undefined;
    // The task names the subagent's session better than the preamble its first line is.
    if (task && s.sessionId !== null)
      sink.out.push({
        kind: "session",
        line: line.line,
        ts: null,
        key: "session",
        sessionId: s.sessionId,
        title: task,
      });
  }
  const details = obj(obj(o["message"])?.["details"]);
  const exit = num(details?.["exitCode"]);
  if (exit === undefined) return;
  for (let i = before; i < sink.out.length; i++) {
    const r = sink.out[i]!;
    if (r.kind === "tool_result" && r.exitCode === null) r.exitCode = exit;
  }
}

/** Who a session's parent is, once its header is read: a subagent's session record names it. */
interface Spawn {
  /** The parent's session key (`agent:main:main`), null when the session is no subagent. */
  parentKey: string | null;
  parentSessionId: string | null;
  meta: Record<string, unknown>;
}

function sessionOf(sessionId: string, line: SourceLine, spawn: Spawn): RawRecord {
  return {
    kind: "session",
    line: line.line,
    ts: null,
    key: "session",
    sessionId,
    ...(spawn.parentKey !== null ? { sessionKind: "subagent" as const, parentSessionId: spawn.parentSessionId } : {}),
    meta: { ...spawn.meta, ...(spawn.parentKey !== null ? { parent_session_key: spawn.parentKey } : {}) },
  };
}

export interface OpenClawFileState extends PiState {
  spawn: Spawn;
  /** Whether the session record naming the parent has been written. */
  noted: boolean;
}

/** The session at `path` in `sessions.json` (its text in `index`): the parent it was spawned by, if any. */
function spawnOf(path: string, index: string | undefined): Spawn {
  const none: Spawn = { parentKey: null, parentSessionId: null, meta: {} };
  let entries: Obj | undefined;
  try {
    entries = obj(index === undefined ? undefined : JSON.parse(index));
  } catch {
    return none;
  }
  if (!entries) return none;
  const id = basename(path).replace(/\.jsonl$/, "");
  for (const [key, value] of Object.entries(entries)) {
    const entry = obj(value);
    if (!entry || str(entry["sessionId"]) !== id) continue;
    const parentKey = str(entry["spawnedBy"]) ?? null;
    const parent = parentKey === null ? undefined : obj(entries[parentKey]);
    return { parentKey, parentSessionId: str(parent?.["sessionId"]) ?? null, meta: { session_key: key } };
  }
  return none;
}

/** OpenClaw's JSONL sessions (before 2026.8): pi's format, told apart from pi's files only by their folder. */
export const openclawFileReader: Reader<OpenClawFileState> = {
  provider: "openclaw",
  id: "openclaw-jsonl",
  version: 2,
  byFolder: true,
  detect: (path) => SESSIONS_FOLDER.test(path) && !TRAJECTORY.test(path),
  context: (path) => [join(dirname(path), "sessions.json")],
  initialState(path, context = {}) {
    const spawn = spawnOf(path, context[join(dirname(path), "sessions.json")]);
    return { ...piReader.initialState(path), spawn, noted: false };
  },
  parse(lines, state) {
    const s: OpenClawFileState = { ...state, alias: { ...state.alias }, unknown: { ...state.unknown } };
    return parseLines(lines, s, (st, o, line, sink) => {
      readOpenClawEntry(st, o, line, sink);
      if (!st.noted && st.sessionId !== null) {
        st.noted = true;
        sink.out.push(sessionOf(st.sessionId, line, st.spawn));
      }
    });
  },
};

export interface OpenClawDatabaseState extends LineState {
  /** The session being read (rows come session by session), with pi's state for it. */
  pi: PiState | null;
  noted: boolean;
}

/**
 * Every session's entries, sessions in the order they began, each session's in its own order; with each row, what
 * its session window says of it. The event's columns come whole (`e.*`): `event_zstd` exists only from 2026.9.3.
 */
const QUERY = `
SELECT e.*, w.session_key AS session_key,
  COALESCE(w.parent_session_key, w.spawned_by) AS parent_key,
  (SELECT p.session_id FROM session_windows p
    WHERE p.session_key = COALESCE(w.parent_session_key, w.spawned_by) AND p.created_at <= w.created_at
    ORDER BY p.created_at DESC LIMIT 1) AS parent_session_id,
  w.reason AS reason, w.previous_session_id AS previous_session_id,
  (SELECT m.app_version FROM schema_meta m ORDER BY m.updated_at DESC LIMIT 1) AS version
FROM transcript_events e JOIN session_windows w ON w.session_id = e.session_id
ORDER BY w.created_at, w.session_id, e.seq`;

/** OpenClaw's agent database (2026.8 on): pi's entries as rows, one session after another. */
export const openclawDatabaseReader: Reader<OpenClawDatabaseState> = {
  provider: "openclaw",
  id: "openclaw-sqlite",
  version: 2,
  database: { tables: ["transcript_events", "session_windows", "schema_meta"], query: QUERY },
  // Databases are told apart by their tables; a line-based file never is one.
  detect: () => false,
  initialState() {
    return { sessionId: null, unknown: {}, pi: null, noted: false };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readRow);
  },
};

function readRow(s: OpenClawDatabaseState, row: Obj, line: SourceLine, sink: LineSink): void {
  const sessionId = str(row["session_id"]) ?? "";
  if (s.pi === null || sessionId !== s.sessionId) {
    s.sessionId = sessionId;
    s.pi = piReader.initialState(`${sessionId}.jsonl`);
    s.noted = false;
  }
  const event = obj(JSON.parse(str(row["event_json"]) ?? decompressed(row["event_zstd"])));
  if (!event) throw new Error("the row's event is not a JSON object");
  readOpenClawEntry(s.pi, event, line, sink);
  if (!s.noted && s.pi.sessionId !== null) {
    s.noted = true;
    sink.out.push(sessionOf(s.pi.sessionId, line, windowSpawn(row)));
  }
}

/** An entry's JSON compressed with zstd, as the row's BLOB comes (a serialized Buffer). */
function decompressed(blob: unknown): string {
  const bytes = arr(obj(blob)?.["data"]);
  if (!bytes) throw new Error("the row holds no event");
  return zstdDecompressSync(Buffer.from(bytes as number[])).toString("utf8");
}

function windowSpawn(row: Obj): Spawn {
  const reason = str(row["reason"]);
  const previous = str(row["previous_session_id"]);
  return {
    parentKey: str(row["parent_key"]) ?? null,
    parentSessionId: str(row["parent_session_id"]) ?? null,
    meta: {
      ...(str(row["version"]) ? { version: row["version"] } : {}),
      ...(str(row["session_key"]) ? { session_key: row["session_key"] } : {}),
      ...(reason && reason !== "initial" ? { window_reason: reason } : {}),
      ...(previous ? { previous_session_id: previous } : {}),
    },
  };
}
