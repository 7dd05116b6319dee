/**
 * The `toolResult` message role (a tool call's output) and `bashExecution` (a `!` command the user ran in pi: a
 * call and its result in one message).
 */
import { contentText, type Obj, obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";
import type { EntryAt } from "./state.ts";

/** pi's bash tool appends the exit status to failing output. */
const EXIT_LINE = /(?:^|\n)Command exited with code (\d+)\s*$/;

export function readToolResult(m: Obj, at: EntryAt, out: RawRecord[]): void {
  const details = obj(m["details"]);
  const output = contentText(m["content"]);
  const exit = EXIT_LINE.exec(output.slice(-200));
  out.push({
    kind: "tool_result",
    line: at.line.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    callId: str(m["toolCallId"]) ?? "",
    output,
    isError: m["isError"] === true ? true : m["isError"] === false ? false : null,
    exitCode: exit ? Number(exit[1]) : null,
    meta: {
      tool_name: m["toolName"] ?? null,
      ...(details && str(details["diff"]) ? { diff: details["diff"] } : {}),
    },
  });
}

export function readBashExecution(m: Obj, at: EntryAt, out: RawRecord[]): void {
  const { key } = at;
  const callId = `bash:${key}`;
  out.push({
    kind: "tool_call",
    line: at.line.line,
    ts: at.ts,
    key,
    parentKey: at.parentKey,
    callId,
    name: "bash",
    input: { command: str(m["command"]) ?? "" },
    meta: { user_initiated: true },
  });
  out.push({
    kind: "tool_result",
    line: at.line.line,
    ts: at.ts,
    key: `${key}#out`,
    callId,
    output: str(m["output"]) ?? "",
    isError: m["cancelled"] === true ? true : null,
    exitCode: typeof m["exitCode"] === "number" ? m["exitCode"] : null,
    meta: {
      user_initiated: true,
      ...(m["truncated"] === true ? { truncated: true } : {}),
      ...(m["cancelled"] === true ? { cancelled: true } : {}),
    },
  });
}
