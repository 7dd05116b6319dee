/**
 * One request of a VS Code chat session and its response, as records: the prompt (`message.text`), the reply's
 * markdown (parts with a `value` and no `kind`, `markdownContent`, and `inlineReference` links shown by name), each
 * tool call the response shows with its outcome, and a request that failed (`result.errorDetails`) or that the
 * person stopped (`isCanceled`). A file edit (`textEditGroup`) names the file of the edit calls before it, which the
 * calls' own parts leave out.
 */
import { basename } from "node:path";
import { arr, isObj, isoTime, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, unknownRecord } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";
import { inputOf, outcomeOf, windows } from "./tools.ts";

/** Parts that say nothing a conversation needs: progress, reasoning, the editor's own bookkeeping. */
const QUIET = new Set([
  "thinking",
  "prepareToolInvocation",
  "undoStop",
  "codeblockUri",
  "mcpServersStarting",
  "autoModeResolution",
  "progressMessage",
  "progressTaskSerialized",
  "progressTask",
  "warning",
  "confirmation",
  "command",
  "references",
  "reference",
  "codeCitation",
  "notebookEditGroup",
  "multiDiffData",
  "elicitationSerialized",
  "extensions",
  "pullRequest",
  "treeData",
  "markdownVuln",
  "questionCarousel",
  "hook",
]);

interface Base {
  line: number;
  ts: string | null;
}

export function request(s: LineState, r: Obj, key: string, at: SourceLine, sink: LineSink): void {
  const base: Base = { line: at.line, ts: isoTime(r["timestamp"]) };
  const message = obj(r["message"]);
  const prompt = str(message?.["text"]) ?? partsText(message?.["parts"]);
  if (prompt.trim() !== "") {
    const system = r["isSystemInitiated"] === true;
    sink.out.push({
      kind: "message",
      ...base,
      key,
      role: system ? "system" : "user",
      text: prompt,
      typed: !system,
      ...(system ? { meta: { injected: "system" } } : {}),
    });
  }
  response(s, r, key, base, at, sink);
  ending(r, key, base, sink);
}

function partsText(parts: unknown): string {
  return (arr(parts) ?? [])
    .filter(isObj)
    .map((p) => str(p["text"]) ?? "")
    .join("");
}

function response(s: LineState, r: Obj, key: string, base: Base, at: SourceLine, sink: LineSink): void {
  const model = str(r["modelId"]);
  const meta = model ? { meta: { model } } : {};
  let text = "";
  let replies = 0;
  let pathless: Obj[] = [];
  const flush = () => {
    if (text.trim() !== "")
      sink.out.push({
        kind: "message",
        ...base,
        key: `${key}#a${replies++}`,
        role: "assistant",
        text,
        typed: false,
        ...meta,
      });
    text = "";
  };
  const parts = (arr(r["response"]) ?? []).filter(isObj);
  for (const [i, p] of parts.entries()) {
    const kind = str(p["kind"]);
    if (kind === undefined || kind === "markdownContent") {
      text += kind === undefined ? (str(p["value"]) ?? "") : (str(obj(p["content"])?.["value"]) ?? "");
      continue;
    }
    if (kind === "inlineReference") {
      text += referenceName(p);
      continue;
    }
    if (kind === "toolInvocationSerialized") {
      flush();
      const input = inputOf(p);
      if (input["filePath"] === undefined && input["command"] === undefined) pathless.push(input);
      call(p, `${key}#t${i}`, input, base, sink);
      continue;
    }
    if (kind === "textEditGroup") {
      const path = uriPath(p["uri"]);
      if (path) for (const input of pathless) input["filePath"] = path;
      pathless = [];
      continue;
    }
    if (!QUIET.has(kind)) unknownRecord(s, `part/${kind}`, p, at, base.ts, sink);
  }
  flush();
}

/** Pushed now, with an input a later edit part may still complete (it is the same object). */
function call(p: Obj, key: string, input: Obj, base: Base, sink: LineSink): void {
  const callId = str(p["toolCallId"]) ?? key;
  const sub = str(p["subAgentInvocationId"]);
  sink.out.push({
    kind: "tool_call",
    ...base,
    key,
    callId,
    name: str(p["toolId"]) ?? "unknown",
    input,
    ...(sub ? { meta: { subagent_call: sub } } : {}),
  });
  const outcome = outcomeOf(p);
  if (outcome)
    sink.out.push({ kind: "tool_result", ...base, key: `${key}#result`, parentKey: key, callId, ...outcome });
}

/** A failed request (the model's service refused, a quota ran out) or one the person stopped. */
function ending(r: Obj, key: string, base: Base, sink: LineSink): void {
  const error = obj(obj(r["result"])?.["errorDetails"]);
  if (error) {
    const text = str(error["message"]) ?? "The request failed";
    sink.out.push({ kind: "notice", ...base, key: `${key}#error`, level: "error", text, aboutKey: key });
    return;
  }
  if (r["isCanceled"] === true)
    sink.out.push({
      kind: "notice",
      ...base,
      key: `${key}#stopped`,
      level: "warning",
      text: "The request was stopped",
      meta: { interrupt: true },
    });
}

function referenceName(p: Obj): string {
  const ref = obj(p["inlineReference"]);
  const name = str(p["name"]) ?? str(ref?.["name"]);
  if (name) return name;
  const path = uriPath(ref) ?? uriPath(ref?.["uri"]) ?? uriPath(obj(ref?.["location"])?.["uri"]);
  return path ? basename(path) : "";
}

function uriPath(u: unknown): string | undefined {
  const o = obj(u);
  const path = str(o?.["fsPath"]) ?? str(o?.["path"]);
  return path ? windows(path) : undefined;
}
