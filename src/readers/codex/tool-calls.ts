/**
 * Response items that are tool calls (`function_call`, `custom_tool_call`, `local_shell_call`, `web_search_call`)
 * and the outputs that answer them (`*_output`, matched to their call by `call_id`).
 */
import { type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import { takeExitCode } from "./exit-codes.ts";
import type { CodexState, ItemAt } from "./state.ts";
import { parseOutput } from "./tool-output.ts";

/** A call of any of the four kinds; `type` is the item's. */
export function readToolCall(type: string, p: Obj, at: ItemAt, out: RawRecord[]): void {
  const { line, ts, key } = at;
  const call = { kind: "tool_call" as const, line: line.line, ts, key, callId: str(p["call_id"]) ?? key };
  if (type === "function_call") {
    out.push({
      ...call,
      name: str(p["name"]) ?? "unknown",
      input: callArguments(p["arguments"]),
      meta: namespaceMeta(p),
    });
  } else if (type === "custom_tool_call") {
    out.push({ ...call, name: str(p["name"]) ?? "unknown", input: { input: p["input"] ?? "" } });
  } else if (type === "local_shell_call") {
    const action = obj(p["action"]) ?? {};
    out.push({
      ...call,
      name: "local_shell",
      input: { command: action["command"] ?? [], workdir: action["working_directory"] ?? null },
    });
  } else {
    out.push({
      ...call,
      callId: str(p["call_id"]) ?? str(p["id"]) ?? key,
      name: "web_search",
      input: obj(p["action"]) ?? {},
    });
  }
}

/** Arguments are a JSON object in a string; anything else is kept raw without paying for a thrown error. */
function callArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  if (raw.charCodeAt(0) === 123 /* { */) {
    try {
      return JSON.parse(raw);
    } catch {
      // kept raw
    }
  }
  return { raw };
}

/** A call may name the namespace its tool belongs to: kept beside the name, which alone may not say it. */
function namespaceMeta(p: Obj): Record<string, unknown> | undefined {
  const ns = str(p["namespace"]);
  return ns ? { namespace: ns } : undefined;
}

/** An output: its own exit code if it states one, else the one an event reported for its call. */
export function readToolOutput(s: CodexState, p: Obj, at: ItemAt, out: RawRecord[]): void {
  const { line, ts, key } = at;
  const callId = str(p["call_id"]) ?? "";
  const parsed = parseOutput(p["output"]);
  const early = takeExitCode(s, callId);
  out.push({
    kind: "tool_result",
    line: line.line,
    ts,
    key,
    callId,
    output: parsed.text,
    isError: parsed.success === false ? true : null,
    exitCode: parsed.exitCode ?? early ?? null,
    meta: parsed.meta,
  });
}
