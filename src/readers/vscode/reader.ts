/**
 * VS Code's chat sessions (GitHub Copilot Chat and any other chat participant): one file per session in
 * `workspaceStorage/<workspace>/chatSessions/` (`globalStorage/emptyWindowChatSessions/` for a window with no
 * folder). Up to 2025 `<session>.json`, the session document written whole, pretty-printed; since then
 * `<session>.jsonl`, a log of changes to that same document (session-log.ts). The document: `version` (3),
 * `sessionId`, `creationDate` (ms), `customTitle`, `responderUsername`, `initialLocation`, and `requests[]`, each
 * with `requestId`, `timestamp`, `message`, `response[]` (parts), `result` (`errorDetails` when it failed,
 * `timings`, the participant's `metadata`), `modelId` and `agent` (the participant, with its extension's version).
 * Both files are read whole each time they change: the log is rewritten whole when VS Code compacts it.
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { arr, isObj, isoTime, type Obj, obj, problem, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord, wholeDocument } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { request } from "./requests.ts";
import { replayLog } from "./session-log.ts";
import { windows } from "./tools.ts";

export interface VscodeState extends LineState {
  fallbackId: string;
  /** The folder the workspace is, from `workspace.json` beside its `chatSessions`. */
  cwd: string | null;
}

const SESSION_FILE = /[\\/](?:chatSessions|emptyWindowChatSessions)[\\/][^\\/]+\.jsonl?$/;
/** The log's first entry: the whole document, `version` first. */
const LOG_HEAD = /^\{"kind":0,"v":\{"version":\d+,/;

export const vscodeReader: Reader<VscodeState> = {
  provider: "vscode",
  version: 1,
  wholeFile: (path) => /\.jsonl?$/.test(path),
  detect(path, head) {
    if (path !== "") return SESSION_FILE.test(path);
    if (LOG_HEAD.test(head)) return /"(?:requesterUsername|responderUsername|requests)":/.test(head);
    // The pretty-printed document's first lines: its version, then who asked and who answered.
    return /^\{\s*"version":\s*\d+,\s*"(?:requesterUsername|responderUsername|creationDate|initialLocation)"/.test(
      head,
    );
  },
  context: (path) => [workspaceFile(path)],
  initialState(path, context = {}) {
    const cwd = folderOf(context[workspaceFile(path)]);
    return { sessionId: null, unknown: {}, fallbackId: basename(path).replace(/\.jsonl?$/, ""), cwd };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), () => undefined, gather);
  },
};

function workspaceFile(path: string): string {
  return join(dirname(dirname(path)), "workspace.json");
}

/** `{"folder": "file:///…"}`: the folder a workspace is (a `.code-workspace` file's workspace names none). */
function folderOf(text: string | undefined): string | null {
  if (!text) return null;
  try {
    const folder = str(obj(JSON.parse(text) as unknown)?.["folder"]);
    return folder?.startsWith("file://") ? windows(fileURLToPath(folder, { windows: false })) : null;
  } catch {
    return null;
  }
}

function gather(s: VscodeState, line: SourceLine, sink: LineSink): boolean {
  const doc = documentOf(s, line, sink);
  if (doc === null) return true;
  const at = { text: "", line: line.line };
  const requests = arr(doc["requests"]);
  if (!requests) {
    sink.problems.push(problem(at, "not a VS Code chat session document"));
    return true;
  }
  session(s, doc, requests, at, sink);
  requests.forEach((r, i) => {
    if (isObj(r)) request(s, r, str(r["requestId"]) ?? `r${i}`, at, sink);
    else sink.problems.push(problem(at, `request ${i} is not an object`));
  });
  return true;
}

/** The document, whole or replayed from its log; null (with a problem said) when there is none. */
function documentOf(s: VscodeState, line: SourceLine, sink: LineSink): Obj | null {
  const text = line.text.trimStart();
  if (text.startsWith('{"kind":')) {
    const log = replayLog(line.text, line.line);
    for (const b of log.bad) sink.problems.push(problem({ text: "", line: b.line }, b.reason));
    for (const u of log.unknownKinds)
      unknownRecord(s, `log entry kind ${u.kind}`, u.entry, { text: "", line: u.line }, null, sink);
    if (log.doc === null && log.bad.length === 0)
      sink.problems.push(problem(line, "a session log without its document"));
    return log.doc;
  }
  const parsed = wholeDocument(line, sink);
  if (!parsed) return null;
  if (isObj(parsed.doc)) return parsed.doc;
  sink.problems.push(problem(line, "not a VS Code chat session document"));
  return null;
}

function session(s: VscodeState, doc: Obj, requests: unknown[], at: SourceLine, sink: LineSink): void {
  s.sessionId = str(doc["sessionId"]) ?? s.fallbackId;
  const started = isoTime(doc["creationDate"]);
  const last = requests.filter(isObj).at(-1);
  const model = str(last?.["modelId"]) ?? str(obj(obj(doc["inputState"])?.["selectedModel"])?.["identifier"]);
  const agent = requests
    .filter(isObj)
    .map((r) => obj(r["agent"]))
    .find((a) => a !== undefined);
  sink.out.push({
    kind: "session",
    line: at.line,
    ts: started,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    startedAt: started,
    cwd: s.cwd,
    title: str(doc["customTitle"]) ?? null,
    model: model ?? null,
    meta: {
      format_version: doc["version"] ?? null,
      extension_version: agent?.["extensionVersion"] ?? null,
      responder: doc["responderUsername"] ?? null,
      location: doc["initialLocation"] ?? null,
    },
  });
}
