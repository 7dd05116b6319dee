/**
 * A Cascade tool step as Windsurf writes it to a transcript: `{"<type>": {…}, "status": …, "type": "<type>"}`, the
 * step's own fields under its type, arguments and results together. Seen in a real transcript: `view_file` (`path`
 * as a `file://` URI, `start_line`, `end_line`, the text read in `content`), `code_action` (`path`, the whole file
 * before and after in `original_content` and `new_content`, `acknowledgement_type`), `run_command` (`command`,
 * `cwd`, `exit_code`, `output`, `user_rejected`), `list_directory` (`path`), `find` (`pattern`, `search_directory`,
 * `output`, `total_results`), `grep_search` (`query`, `search_path`, `total_results`) and `list_resources`
 * (`server_name`). Status `done`, or `error` for a step that failed (with no text saying why).
 */
import { fileURLToPath } from "node:url";
import { num, type Obj, str } from "../json.ts";
import type { ToolResultRecord } from "../types.ts";

type Outcome = Pick<ToolResultRecord, "output" | "isError" | "exitCode">;

/**
 * Steps that are tool calls. Beyond those seen, the language server's other tool step types (its step type enum,
 * lower-cased as the transcript names them): their fields are not known, so they are read as the same envelope.
 */
export const TOOL_STEPS = new Set([
  "view_file",
  "code_action",
  "run_command",
  "list_directory",
  "find",
  "grep_search",
  "list_resources",
  "read_resource",
  "mcp_tool",
  "view_code_item",
  "view_content_chunk",
  "command_status",
  "read_terminal",
  "search_web",
  "read_url_content",
  "code_search",
  "propose_code",
]);

/** What a step holds that is its result, not its arguments. */
const RESULT_FIELDS = new Set(["content", "output", "exit_code", "total_results", "user_rejected"]);
/** Fields naming a file or folder by URI. */
const URI_FIELDS = ["path", "search_path", "search_directory"];
/** States a step ends in without having run to its end. */
const STOPPED = new Set(["cancelled", "canceled", "interrupted", "halted", "cleared"]);

/** The step's arguments: its fields less its results, file URIs as paths, a whole-file edit as old and new text. */
export function inputOf(type: string, step: Obj): Obj {
  const input: Obj = {};
  for (const [k, v] of Object.entries(step)) if (!RESULT_FIELDS.has(k)) input[k] = v;
  for (const k of URI_FIELDS) {
    const path = localPath(input[k]);
    if (path !== undefined) input[k] = path;
  }
  if (type === "code_action") {
    // The edit is the whole file, before and after: as old and new text, the shared names of an edit's sides.
    delete input["original_content"];
    delete input["new_content"];
    input["old_string"] = str(step["original_content"]) ?? "";
    input["new_string"] = str(step["new_content"]) ?? "";
  }
  return input;
}

/** The step's result; null while it has not ended. */
export function outcomeOf(step: Obj, status: string): Outcome | null {
  if (step["user_rejected"] === true)
    // Worded as the normalizer knows a declined call: the person's choice, not a failure of the work.
    return { output: "Rejected by the user", isError: true, exitCode: null };
  const exit = num(step["exit_code"]) ?? null;
  const total = num(step["total_results"]);
  const output =
    str(step["output"]) ??
    str(step["content"]) ??
    (total !== undefined ? `${total} result${total === 1 ? "" : "s"}` : "");
  if (status === "done") return { output, isError: exit !== null && exit !== 0, exitCode: exit };
  // A failed step says nothing of why: an empty output lets the failure be named after the step.
  if (status === "error") return { output, isError: true, exitCode: exit };
  if (STOPPED.has(status)) return { output: output || "Cancelled", isError: true, exitCode: exit };
  return null;
}

/** What only a URL parser reads right: escapes, a query or fragment, backslashes, `.` and `..` segments. */
const NEEDS_URL = /[%#?\\\t\n\r]|\/\.\.?(?:\/|$)/;

/** `file:///Users/me/a.md` as the path it names; a plain path as it is. */
export function localPath(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined || !s.startsWith("file://")) return s;
  // A local URI with nothing to decode or resolve is its path after the scheme: no URL parsed for every step.
  if (s.startsWith("file:///") && !NEEDS_URL.test(s)) return fromUriPath(s.slice(7));
  try {
    return fromUriPath(fileURLToPath(s, { windows: false }));
  } catch {
    return s;
  }
}

/** `/c:/Users/x`, a Windows drive in a URI, is the path `c:/Users/x`. */
function fromUriPath(path: string): string {
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}
