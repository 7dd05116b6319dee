/**
 * OpenHands CLI: a conversation's events, one JSON object per file, `kind` naming each: `MessageEvent` (a user's or
 * the agent's `llm_message`; `sender` set when another agent sent it), `ActionEvent` (a tool call: `tool_name`,
 * `tool_call_id`, the parsed `action`, the model's `thought`), `ObservationEvent` (its result: `observation` with
 * `content`, `is_error` and, for a command, `exit_code`), `AgentErrorEvent` and `UserRejectObservation` (a call that
 * failed before it ran, or was refused), `Condensation` (earlier events forgotten, with a summary), and the harness's
 * own (`SystemPromptEvent`, errors, pauses, hooks). The session is the conversation's folder; `base_state.json`,
 * handed over as context, says its workspace and model. A subagent's conversation lies in its parent's `subagents/`.
 * Times are the writer's local time without a zone.
 */
import { basename, dirname, join } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, parseLines } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { type OpenHandsState, readEvent } from "./events.ts";
import { callRecords, callsOf } from "./usage.ts";

const STATE_FILE = "base_state.json";
/** A conversation's state file where OpenHands keeps it: its own folder, or a subagent's under its parent's. */
const STATE_PATH = /[\\/]conversations[\\/][0-9a-f-]+(?:[\\/]subagents[\\/][0-9a-f-]+)*[\\/]base_state\.json$/;
const SUBAGENT = /[\\/]([0-9a-f-]+)[\\/]subagents[\\/][0-9a-f-]+[\\/]base_state\.json$/;

export const openhandsReader: Reader<OpenHandsState> = {
  provider: "openhands",
  version: 2,
  eventFolder: (path) => (basename(path) === STATE_FILE ? join(dirname(path), "events") : null),
  detect(path, head) {
    if (head === "") return path !== "" && STATE_PATH.test(path);
    return isState(head);
  },
  context: (path) => [path],
  initialState(path, context) {
    const st = stateOf(context?.[path]);
    const workspace = obj(st["workspace"]);
    const llm = obj(obj(st["agent"])?.["llm"]);
    return {
      sessionId: basename(dirname(path)),
      unknown: {},
      started: false,
      cwd: str(workspace?.["working_dir"]) ?? null,
      model: str(llm?.["model"]) ?? null,
      parent: SUBAGENT.exec(path)?.[1] ?? null,
      conversationId: str(st["id"]) ?? null,
      calls: callsOf(st),
    };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), readLine);
  },
};

/**
 * The state file by its shape: a conversation `id`, then the `agent` it runs (with its `llm`), its `workspace` and
 * where it persists. Its head is enough when the line is cut short at the detection limit.
 */
function isState(head: string): boolean {
  const o = recordOf(head);
  if (o !== null) return typeof o["id"] === "string" && isObj(o["agent"]) && "persistence_dir" in o && "workspace" in o;
  return /^\{\s*"id"\s*:\s*"[0-9a-f-]+"\s*,\s*"agent"\s*:\s*\{\s*"llm"\s*:\s*\{/.test(head);
}

function stateOf(text: string | undefined): Obj {
  if (text === undefined) return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : {};
  } catch {
    return {}; // rewritten in place while it was read: the folder still names the session
  }
}

function readLine(s: OpenHandsState, o: Obj, line: SourceLine, sink: LineSink): void {
  const ts = localTime(o["timestamp"]);
  if (!s.started) {
    s.started = true;
    sink.out.push({
      kind: "session",
      line: line.line,
      ts,
      key: "session",
      sessionId: s.sessionId,
      sessionKind: s.parent ? "subagent" : "main",
      cwd: s.cwd,
      model: s.model,
      parentSessionId: s.parent,
      startedAt: ts,
      ...(s.conversationId ? { meta: { conversation_id: s.conversationId } } : {}),
    });
    // The state file's calls, with the first event: the folder is read whole whenever the state file changes.
    sink.out.push(...callRecords(s.calls ?? [], { line: line.line, ts: null }));
    s.calls = [];
  }
  readEvent(s, o, line, ts, sink);
}

/** OpenHands writes the local time without a zone (`datetime.now().isoformat()`): read as this machine's. */
function localTime(v: unknown): string | null {
  if (typeof v !== "string") return null;
  // Microseconds are more than Date reads: milliseconds are kept.
  const d = new Date(v.length === 26 && v[19] === "." ? v.slice(0, 23) : v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
