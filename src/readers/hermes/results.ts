/**
 * What a Hermes tool result says: most tools answer a JSON object (the shell `{output, exit_code, error}`, a read
 * `{content}`, an edit `{success, diff | error}`, any tool's failure `{error}`, a subagent run `{results: [{status}]}`),
 * the harness a line of text when it could not run a call (`Error executing tool …`) or skipped it on an interrupt
 * (`[Tool execution cancelled — …]`).
 */
import { arr, isObj, type Obj, str } from "../json.ts";

export interface ResultFacts {
  output: string;
  isError: boolean | null;
  exitCode: number | null;
}

const NOT_RUN = /^Error executing (tool '[^']*'|\S+):/;
const SKIPPED = /^\[Tool execution cancelled — /;

export function resultOf(text: string): ResultFacts {
  const doc = text.startsWith("{") ? parse(text) : null;
  if (!doc) {
    // A call skipped on an interrupt did not run, and so did not fail.
    if (SKIPPED.test(text)) return { output: text, isError: null, exitCode: null };
    return { output: text, isError: NOT_RUN.test(text), exitCode: null };
  }
  const error = str(doc["error"]) ?? "";
  const code = typeof doc["exit_code"] === "number" ? doc["exit_code"] : null;
  const subagentFailed = (arr(doc["results"]) ?? []).some((r) => isObj(r) && str(r["status"]) === "failed");
  const isError = doc["success"] === false || error !== "" || (code !== null && code !== 0) || subagentFailed;
  return { output: outputOf(doc, error) ?? text, isError, exitCode: code };
}

function parse(text: string): Obj | null {
  try {
    const doc: unknown = JSON.parse(text);
    return isObj(doc) ? doc : null;
  } catch {
    return null;
  }
}

/** The text a person reads of a result: the command's output, the file, the diff, or the error. */
function outputOf(doc: Obj, error: string): string | undefined {
  const content = str(doc["content"]);
  // A read (`total_lines` beside it) shows the file as `N|text` lines, one more for the end of its last line.
  const body =
    str(doc["output"]) ??
    (content !== undefined && "total_lines" in doc ? fileText(content) : content) ??
    str(doc["diff"]);
  if (body === undefined) return error !== "" ? error : undefined;
  return error !== "" ? `${body}${body === "" ? "" : "\n"}${error}` : body;
}

/** A read's lines without their `N|` gutter; unchanged when any line lacks its number. */
function fileText(content: string): string {
  const lines = content.split("\n");
  if (!lines.every((l, i) => l.startsWith(`${i + 1}|`))) return content;
  return lines.map((l, i) => l.slice(`${i + 1}|`.length)).join("\n");
}
