/**
 * Mistral Vibe 3: a session is its store's `CURRENT` pointer, read whole each time it changes, with the files it
 * leads to (store.ts) handed over as context. The projection's entries become the records: `message` (a user
 * message with `source: "turn_start"` is a prompt; the assistant's reply), `effect` (a tool call by its `toolName`,
 * `file_system.bash` and the like, with its result: `state.status` failed or completed, a command's `returncode`),
 * and `checkpoint` (`kind: "compaction"`, whose summary is in the model context). A subagent is a session of its
 * own whose projection names its parent.
 */
import { basename, dirname } from "node:path";
import { arr, isObj, isoTime, type Obj, obj, problem, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { loadStore, storeFiles, type VibeStore } from "./store.ts";

export interface VibeState extends LineState {
  fallbackId: string;
  /** The store's contents until the pointer is parsed; dropped then, so a saved state stays small. */
  store: VibeStore | null;
}

const STORE_FORMAT = /^mistral\.vibe\.unified-session-store\//;
const POINTER = /[\\/]unified[\\/][^\\/]+[\\/]CURRENT$/;

export const vibeReader: Reader<VibeState> = {
  provider: "vibe",
  version: 1,
  wholeFile: (path) => POINTER.test(path),
  detect(path, firstLine) {
    const o = recordOf(firstLine);
    if (o)
      return (
        STORE_FORMAT.test(str(o["store_format"]) ?? "") &&
        typeof o["session_id"] === "string" &&
        typeof o["generation"] === "string" &&
        typeof o["manifest_sha256"] === "string"
      );
    return path !== "" && firstLine === "" && POINTER.test(path);
  },
  context: storeFiles,
  initialState(path, context = {}) {
    return { sessionId: null, unknown: {}, fallbackId: basename(dirname(path)), store: loadStore(path, context) };
  },
  parse(lines, state) {
    const out = parseLines(lines, structuredClone(state), readPointer);
    out.state.store = null;
    return out;
  },
};

function readPointer(s: VibeState, o: Obj, line: SourceLine, sink: LineSink): void {
  if (!STORE_FORMAT.test(str(o["store_format"]) ?? "")) {
    sink.problems.push(problem(line, "not a Mistral Vibe session store pointer"));
    return;
  }
  const store = s.store;
  s.sessionId = str(o["session_id"]) ?? s.fallbackId;
  if (!store) return;
  session(s.sessionId, o, store, line, sink);
  for (const f of store.missing) sink.problems.push(problem(line, `the store names ${f}, which could not be read`));
  const compactions = store.entries.filter((e) => e["type"] === "checkpoint" && e["kind"] === "compaction");
  const last = compactions[compactions.length - 1];
  for (const e of store.entries) {
    const type = str(e["type"]) ?? "";
    const ts = isoTime(e["createdAt"]);
    const key = str(e["id"]) ?? "";
    if (type === "message") message(e, key, line.line, ts, sink);
    else if (type === "effect") effect(e, key, line.line, ts, sink);
    else if (type === "checkpoint" && e["kind"] === "compaction") {
      const details = obj(e["details"]) ?? {};
      sink.out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key,
        pointKind: "compaction",
        // Only the newest compaction's summary is still in the model context.
        text: (e === last ? store.summary : null) ?? str(e["message"]) ?? "",
        meta: { trigger: details["trigger"] ?? null },
      });
    } else unknownRecord(s, type === "checkpoint" ? `checkpoint/${str(e["kind"]) ?? ""}` : type, e, line, ts, sink);
  }
}

function session(id: string, pointer: Obj, store: VibeStore, line: SourceLine, sink: LineSink): void {
  const { meta, session: view } = store;
  const parent = str(view["parentSessionId"]) ?? str(meta["parent_session_id"]) ?? null;
  const cwd = str(obj(meta["environment"])?.["working_directory"]);
  const title = str(meta["title"]) ?? str(view["title"]);
  const model = str(obj(meta["config"])?.["model_name"]);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts: null,
    key: "session",
    sessionId: id,
    sessionKind: parent ? "subagent" : "main",
    ...(parent ? { parentSessionId: parent } : {}),
    ...(cwd ? { cwd } : {}),
    ...(title ? { title } : {}),
    ...(model ? { model } : {}),
    startedAt: str(meta["start_time"]) ?? isoTime(view["createdAt"]),
    meta: { vibe_store_format: `${str(pointer["store_format"])}.${pointer["store_format_minor"] ?? 0}` },
  });
}

function text(content: unknown): string {
  return (arr(content) ?? [])
    .filter(isObj)
    .filter((b) => b["type"] === "text")
    .map((b) => str(b["text"]) ?? "")
    .join("\n");
}

function message(e: Obj, key: string, line: number, ts: string | null, sink: LineSink): void {
  const role = str(e["role"]);
  const body = text(e["content"]);
  if (body.trim() === "") return;
  const source = str(e["source"]) ?? null;
  sink.out.push({
    kind: "message",
    line,
    ts,
    key,
    role: role === "user" ? "user" : role === "assistant" ? "assistant" : "system",
    text: body,
    // A turn's first message is what the person typed; other user-role messages are the harness's.
    typed: role === "user" && source === "turn_start",
    meta: { source },
  });
}

function effect(e: Obj, key: string, line: number, ts: string | null, sink: LineSink): void {
  const detail = obj(e["detail"]) ?? {};
  const state = obj(e["state"]) ?? {};
  const name = str(detail["toolName"]) ?? str(e["title"]) ?? "effect";
  const input = obj(detail["input"]) ?? {};
  const output = obj(state["output"]) ?? {};
  const child = str(obj(obj(output["_meta"])?.["mistral.vibe.subagent"])?.["childSessionId"]);
  sink.out.push({
    kind: "tool_call",
    line,
    ts,
    key,
    callId: key,
    name,
    // `search_replace` takes its replacements as `content` blocks of `old_str`/`new_str`: the edits.
    input: Array.isArray(input["content"]) ? { ...input, edits: input["content"] } : input,
    meta: { effect_kind: detail["kind"] ?? null, ...(child ? { child_session: child } : {}) },
  });
  const status = str(state["status"]);
  if (status !== "completed" && status !== "failed") return;
  const structured = obj(output["structured_content"]) ?? {};
  const code = structured["returncode"];
  sink.out.push({
    kind: "tool_result",
    line,
    ts: isoTime(e["updatedAt"]) ?? ts,
    key: `${key}#result`,
    callId: key,
    output: resultText(state, output, structured),
    isError: status === "failed" || output["type"] === "failure",
    exitCode: typeof code === "number" ? code : null,
  });
}

/** What a tool returned, as text: a command's output, a read file's text, an error's message, or the JSON. */
function resultText(state: Obj, output: Obj, structured: Obj): string {
  const error = str(obj(output["error"])?.["message"]) ?? str(obj(state["error"])?.["message"]);
  if (error !== undefined) return error;
  const said = str(state["outputText"]);
  if (said) return said;
  if (typeof structured["returncode"] === "number")
    return [str(structured["stdout"]) ?? "", str(structured["stderr"]) ?? ""].filter((t) => t !== "").join("\n");
  const content = str(structured["content"]);
  if (content !== undefined) return content;
  return Object.keys(structured).length > 0 ? JSON.stringify(structured) : "";
}
