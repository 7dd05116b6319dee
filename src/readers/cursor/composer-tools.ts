/**
 * What a tool call in a Cursor editor chat came to, from its `toolFormerData`: `status` says whether it ran
 * (`completed`), failed (`error`, the reason in `error`, a JSON string whose `clientVisibleErrorMessage` is what the
 * editor shows) or was stopped (`cancelled`; `userDecision: "rejected"` when the person declined it). `result` is
 * the tool's own JSON: a read's `contents`, a command's `output`, a search's matches. A call still running has none.
 */
import { num, type Obj, obj, str } from "../json.ts";
import type { ToolResultRecord } from "../types.ts";

type Outcome = Pick<ToolResultRecord, "output" | "isError" | "exitCode">;

export function toolOutcome(tool: Obj): Outcome | null {
  const status = str(tool["status"]);
  const result = jsonIn(tool["result"]);
  if (status === "completed") {
    const exit = num(result?.["exitCode"]) ?? null;
    return { output: outputOf(tool["result"], result), isError: exit !== null && exit !== 0, exitCode: exit };
  }
  if (status === "error")
    return { output: errorOf(tool) ?? outputOf(tool["result"], result), isError: true, exitCode: null };
  if (status === "cancelled") {
    // Worded as the normalizer knows a declined call, so that it is the person's choice, not a failure of the work.
    const output = str(tool["userDecision"]) === "rejected" ? "Rejected by the user" : "Cancelled";
    return { output, isError: true, exitCode: null };
  }
  return null;
}

/** The text a result shows: the file read, the command's output, or else the result as Cursor kept it. */
function outputOf(raw: unknown, result: Obj | undefined): string {
  if (result) {
    const text = str(result["contents"]) ?? str(result["output"]) ?? str(result["content"]);
    if (text !== undefined) return text;
  }
  return typeof raw === "string" ? raw : raw === undefined || raw === null ? "" : JSON.stringify(raw);
}

function errorOf(tool: Obj): string | undefined {
  const raw = tool["error"];
  const e = jsonIn(raw);
  return str(e?.["clientVisibleErrorMessage"]) || str(e?.["message"]) || str(raw) || undefined;
}

/** A JSON object kept in a string (Cursor's `rawArgs`, `params`, `result`, `error`), or the object itself. */
export function jsonIn(v: unknown): Obj | undefined {
  if (typeof v !== "string") return obj(v);
  try {
    return obj(JSON.parse(v) as unknown);
  } catch {
    return undefined;
  }
}
