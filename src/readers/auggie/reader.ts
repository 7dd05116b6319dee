/**
 * Auggie (Augment's CLI): `~/.augment/sessions/<session>.json`, one JSON document rewritten whole as the session
 * grows: `sessionId`, `created`, `modified`, `chatHistory[]` (exchange.ts), `agentState` (`modelId`), a `title` or
 * `customTitle`, `parentConversationId` on a sub-agent's own session, and — when the service asks for them —
 * `summarizations[]` and `subAgents[]`, each sub-agent's `chatHistory` kept inside its parent's document (read here
 * as a session of its own). Its `<session>-backupN.json` copies (written when the service's history won) are not
 * transcripts.
 */
import { basename } from "node:path";
import { cloneJson } from "../../common/clone.ts";
import { arr, isObj, type Obj, obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { type ExchangeContext, readEntry } from "./exchange.ts";

export interface AuggieState extends LineState {
  fallbackId: string;
  /** The folder the session's exchanges last named (their workspace state). */
  cwd: string | null;
}

export const auggieReader: Reader<AuggieState> = {
  provider: "auggie",
  version: 2,
  wholeFile: (path) => path.endsWith(".json"),
  detect(path, head) {
    if (/[\\/]\.augment[\\/]sessions[\\/][^\\/]+\.json$/.test(path)) return !/-backup\d+\.json$/.test(path);
    if (path !== "") return false;
    // The document's head: its session id and times, then the exchanges.
    return /"sessionId"\s*:/.test(head) && /"created"\s*:/.test(head) && /"chatHistory"\s*:/.test(head);
  },
  initialState(path) {
    return { sessionId: null, unknown: {}, fallbackId: basename(path).replace(/\.json$/, ""), cwd: null };
  },
  parse(lines, state) {
    return parseLines(lines, cloneJson(state), () => undefined, gather);
  },
};

/** The document comes whole as one line (`wholeFile`); one cut short while Auggie rewrote it is read again later. */
function gather(s: AuggieState, line: SourceLine, sink: LineSink): boolean {
  const whole = wholeDocument(line, sink);
  if (!whole) return true;
  const { doc } = whole;
  const at = { text: "", line: line.line };
  const history = isObj(doc) ? arr(doc["chatHistory"]) : undefined;
  if (!isObj(doc) || !history) {
    sink.problems.push(problem(at, "not an Auggie session document (no chatHistory)"));
    return true;
  }
  read(s, doc, history, at, sink);
  return true;
}

function read(s: AuggieState, doc: Obj, history: unknown[], at: SourceLine, sink: LineSink): void {
  const id = str(doc["sessionId"]) ?? s.fallbackId;
  s.sessionId = id;
  const parent = str(doc["parentConversationId"]) ?? null;
  const model = str(obj(doc["agentState"])?.["modelId"]);
  const title = str(doc["customTitle"]) ?? str(doc["title"]);
  const queued = (arr(obj(doc["queue"])?.["messages"]) ?? []).filter(isObj).map((m) => str(m["text"]) ?? "");
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: null,
    key: "session",
    sessionId: id,
    sessionKind: parent ? "subagent" : "main",
    ...(parent ? { parentSessionId: parent } : {}),
    startedAt: str(doc["created"]) ?? null,
    ...(model ? { model } : {}),
    ...(title ? { title } : {}),
    meta: {
      workspace_id: doc["workspaceId"] ?? null,
      ...(arr(doc["summarizations"]) ? { summarizations: doc["summarizations"] } : {}),
      // Instructions typed while the agent worked and not yet sent: not part of the conversation so far.
      ...(queued.length > 0 ? { queued } : {}),
    },
  });
  const c: ExchangeContext = { s, sessionId: id, sub: parent !== null, at, sink };
  history.forEach((e, i) => {
    if (isObj(e)) readEntry(c, e, i);
  });
  (arr(doc["subAgents"]) ?? []).filter(isObj).forEach((a, i) => {
    subAgent(s, id, doc, history, a, i, at, sink);
  });
}

/**
 * A sub-agent's run, kept in its parent's document: a session of its own under the parent, named after the call
 * that started it (the `sub-agent-*` call in the parent's exchange `tool_call_request_id`).
 */
function subAgent(
  s: AuggieState,
  parent: string,
  doc: Obj,
  history: unknown[],
  a: Obj,
  i: number,
  at: SourceLine,
  sink: LineSink,
): void {
  const name = str(a["name"]) ?? null;
  const id = `${parent}:agent-${name ?? i}`;
  const model = str(a["model"]);
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: null,
    key: "session",
    sessionId: id,
    sessionKind: "subagent",
    parentSessionId: parent,
    startedAt: str(doc["created"]) ?? null,
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(model ? { model } : {}),
    meta: { agent_name: name, spawned_by_call: spawningCall(history, str(a["tool_call_request_id"]), name) },
  });
  const c: ExchangeContext = { s, sessionId: id, sub: true, at, sink };
  (arr(a["chatHistory"]) ?? []).forEach((e, j) => {
    if (isObj(e)) readEntry(c, e, j);
  });
}

/** The id of the `sub-agent-*` call that started the sub-agent named `name`, in the exchange `requestId`. */
function spawningCall(history: unknown[], requestId: string | undefined, name: string | null): string | null {
  if (!requestId) return null;
  const x = history.filter(isObj).find((e) => obj(e["exchange"])?.["request_id"] === requestId);
  for (const n of arr(obj(x?.["exchange"])?.["response_nodes"]) ?? []) {
    const use = obj(obj(n)?.["tool_use"]);
    if (!use || !str(use["tool_name"])?.startsWith("sub-agent")) continue;
    const input = str(use["input_json"]) ?? "";
    if (name === null || input.includes(`"${name}"`)) return str(use["tool_use_id"]) ?? null;
  }
  return null;
}
