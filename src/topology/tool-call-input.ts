/**
 * A tool call's input as typed data: what kind of call it is and its arguments under one set of names, whatever
 * the agent called them (`old_string`, `oldText`, `old_str`, `oldString` are all `edits[].old`). Derived once when a
 * call is normalized and kept in the event's `meta.input`, so later layers read fields instead of re-parsing text.
 */
import { agentToolNames } from "../readers/agents.ts";
import { shellCommandOf } from "./command.ts";

export const TOOL_INPUT_KINDS = ["edit", "write", "read", "shell", "search", "plan", "patch", "other"] as const;
export type ToolInputKind = (typeof TOOL_INPUT_KINDS)[number];

export interface TextEdit {
  old: string;
  /** Absent when the call did not say (a call cut off mid-way): such an edit cannot be replayed. */
  new?: string;
  /** Every occurrence, not only the first (Claude Code's `replace_all`). */
  all?: boolean;
}

export interface PlanStep {
  text: string;
  /** As the agent wrote it (`pending`, `in_progress`, `completed`, `done`, …); a boolean `done` becomes `completed`. */
  status: string;
}

export interface ToolInput {
  kind: ToolInputKind;
  /** The file or folder the call names (read, write, edit, search). */
  path?: string;
  /** edit: the replacements in the order they apply. */
  edits?: TextEdit[];
  /** write: the whole new content. */
  content?: string;
  /** shell: the command line. */
  command?: string;
  /** search: what is searched for. */
  pattern?: string;
  /** plan: the agent's to-do list as of this call. */
  todos?: PlanStep[];
  /** patch: an `apply_patch` envelope. */
  patch?: string;
  /** read: only part of the file was asked for (an offset, a line limit or a range). */
  partial?: boolean;
}

type Args = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function first(a: Args, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = str(a[k]);
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

const PATH_KEYS = [
  "file_path",
  "path",
  "filePath",
  "filepath",
  "notebook_path",
  "absolute_path",
  "filename",
  "file",
  "target_file",
] as const;
const OLD_KEYS = ["old_string", "oldText", "old_str", "oldString", "old_text", "old"] as const;
const NEW_KEYS = ["new_string", "newText", "new_str", "newString", "new_source", "new_text", "new"] as const;
const CONTENT_KEYS = ["content", "contents", "file_text", "file_content", "text"] as const;
const PATTERN_KEYS = ["pattern", "query", "regex", "glob"] as const;

/** Tool names with the mcp server prefix removed (`mcp__fs__read_file` is `read_file`), lower-cased. */
function baseName(toolName: string): string {
  return toolName.toLowerCase().replace(/^mcp__[^_]+(?:_[^_]+)*__/, "");
}

// The names every agent might use; each agent's own come from its manifest (`tools` in readers/<agent>/agent.ts).
const READ = new Set(["read", "read_file", "view", "read_text_file", ...agentToolNames("read")]);
const WRITE = new Set(["write", "write_file", "create_file", "create", ...agentToolNames("write")]);
const EDIT = new Set(["edit", "edit_file", "str_replace", ...agentToolNames("edit")]);
const EDITOR = new Set(["str_replace_editor", "str_replace_based_edit_tool", ...agentToolNames("editor")]);
const SEARCH = new Set(["grep", "glob", "find", "ls", "codebase_search", ...agentToolNames("search")]);
const PLAN = new Set(["todo", "todo_write", "update_todo", ...agentToolNames("plan")]);
const PATCH = new Set(["apply_patch", "patch", ...agentToolNames("patch")]);

function isArgs(v: unknown): v is Args {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const hasKey = (v: unknown, keys: readonly string[]) => isArgs(v) && keys.some((k) => typeof v[k] === "string");
const hasEditKey = (v: unknown) => hasKey(v, OLD_KEYS) || hasKey(v, NEW_KEYS);

/**
 * The replacements: `edits[]`, the call's own old/new text, or a list of replacements under another name. A list
 * whose entries have no old text (insertions at a line) is no replacement: such a call cannot be replayed.
 */
function editsOf(a: Args): TextEdit[] | undefined {
  // A list of edits, or one edit under `edit` (Kimi CLI's `{old, new}`, or a list of them), a list under another
  // name whose entries hold old text (Auggie's `str_replace_entries`), or the call itself.
  const named = Object.values(a).find((v) => Array.isArray(v) && hasKey(v[0], OLD_KEYS));
  const given = a["edits"] ?? a["edit"];
  const list = Array.isArray(given)
    ? given
    : isArgs(given)
      ? [given]
      : !hasEditKey(a) && Array.isArray(named)
        ? named
        : [a];
  const all = a["replace_all"] === true;
  const out: TextEdit[] = [];
  for (const x of list) {
    if (typeof x !== "object" || x === null) return undefined;
    const e = x as Args;
    const old = OLD_KEYS.map((k) => str(e[k])).find((v) => v !== undefined);
    const next = NEW_KEYS.map((k) => str(e[k])).find((v) => v !== undefined);
    if (old === undefined && next === undefined) return undefined;
    const every = all || e["replace_all"] === true;
    out.push({ old: old ?? "", ...(next !== undefined ? { new: next } : {}), ...(every ? { all: true } : {}) });
  }
  return out.length > 0 ? out : undefined;
}

function todosOf(a: Args): PlanStep[] | undefined {
  const list = a["todos"] ?? a["plan"] ?? a["items"] ?? a["tasks"];
  if (!Array.isArray(list)) return undefined;
  const out: PlanStep[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null) continue;
    const o = item as Args;
    const text = first(o, ["content", "step", "text", "title", "description"]);
    if (text === undefined || text.trim() === "") continue;
    const done = o["done"] ?? o["completed"];
    const status = str(o["status"]) ?? (done === true ? "completed" : "pending");
    out.push({ text: text.trim(), status });
  }
  return out;
}

function readInput(a: Args, path: string | undefined): ToolInput {
  const partial = a["offset"] !== undefined || a["limit"] !== undefined || a["view_range"] !== undefined;
  return { kind: "read", ...(path ? { path } : {}), ...(partial ? { partial: true } : {}) };
}

function writeInput(a: Args, path: string | undefined): ToolInput {
  const content = CONTENT_KEYS.map((k) => str(a[k])).find((v) => v !== undefined);
  return { kind: "write", ...(path ? { path } : {}), ...(content !== undefined ? { content } : {}) };
}

function editInput(a: Args, path: string | undefined): ToolInput {
  const edits = editsOf(a);
  return { kind: "edit", ...(path ? { path } : {}), ...(edits ? { edits } : {}) };
}

/**
 * The typed input of a call to `toolName` with the agent's raw `input`. Unknown tools are `other` with only the
 * path they name, if any; nothing about them is guessed.
 */
export function toolInputOf(toolName: string, input: unknown): ToolInput {
  const command = shellCommandOf(toolName, input);
  if (command !== null) return { kind: "shell", command };
  const name = baseName(toolName);
  if (PATCH.has(name) && typeof input === "string") return { kind: "patch", patch: input };
  const a: Args = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Args) : {};
  const path = first(a, PATH_KEYS);
  if (READ.has(name)) return readInput(a, path);
  // Cline: `read_files` takes a list of files; `editor` creates the file when no `old_text` is given.
  if (name === "read_files" && Array.isArray(a["files"]) && isArgs(a["files"][0]))
    return readInput(a["files"][0], first(a["files"][0], PATH_KEYS));
  if (name === "editor" && a["insert_line"] === undefined)
    return typeof a["old_text"] === "string"
      ? editInput(a, path)
      : {
          kind: "write",
          ...(path ? { path } : {}),
          ...(typeof a["new_text"] === "string" ? { content: a["new_text"] } : {}),
        };
  if (WRITE.has(name)) return writeInput(a, path);
  if (EDIT.has(name)) return editInput(a, path);
  if (EDITOR.has(name)) {
    // The editor tool's `command` says which of read, create and edit this call is.
    const sub = str(a["command"]);
    if (sub === "view") return readInput(a, path);
    if (sub === "create") return writeInput(a, path);
    return editInput(a, path);
  }
  if (PATCH.has(name)) {
    const patch = first(a, ["input", "patch", "patchText"]);
    // A patch tool can also take one replacement instead of an envelope (Hermes Agent's `patch`, mode `replace`).
    if (!patch && hasEditKey(a)) return editInput(a, path);
    return { kind: "patch", ...(patch ? { patch } : {}) };
  }
  if (PLAN.has(name)) {
    const todos = todosOf(a);
    return { kind: "plan", ...(todos ? { todos } : {}) };
  }
  if (SEARCH.has(name)) {
    const pattern = first(a, PATTERN_KEYS);
    return { kind: "search", ...(path ? { path } : {}), ...(pattern !== undefined ? { pattern } : {}) };
  }
  return { kind: "other", ...(path ? { path } : {}) };
}

/** The typed input the normalizer kept on a tool call event, or null for other events and older indexes. */
export function toolInputOfEvent(e: { event_type: string; meta: Record<string, unknown> }): ToolInput | null {
  if (e.event_type !== "tool_call") return null;
  const v = e.meta["input"];
  if (typeof v !== "object" || v === null) return null;
  const kind = (v as { kind?: unknown }).kind;
  return typeof kind === "string" && (TOOL_INPUT_KINDS as readonly string[]).includes(kind) ? (v as ToolInput) : null;
}

/** Harness text an agent's runtime appends to tool output (Claude Code's reminders); it is not the tool's. */
const REMINDER = /\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g;
/** A `cat -n` style line-number gutter (`   12→`, `12\t`) that file-read tools put before each line. */
const GUTTER = /^\s*\d+(?:→|\t)/;

/**
 * OpenCode's (and Kilo's) read output: the file inside `<path>…</path><type>file</type><content>…</content>`,
 * each line numbered `12: `, then a note such as "(End of file - total 5 lines)".
 */
const ENVELOPE =
  /^<path>[^\n]*<\/path>\n<type>file<\/type>\n<content>\n([\s\S]*?)\n*(?:\((?:End of file|File has more lines|Output capped)[^\n]*\)\n)?<\/content>\s*$/;
const COLON_GUTTER = /^\d+: ?/;

/** Text as a file-read tool showed it, without its line-number gutter when most lines carry one. */
export function withoutGutter(text: string): string {
  const wrapped = ENVELOPE.exec(text);
  if (wrapped) {
    const lines = wrapped[1]!.split("\n");
    if (lines.every((l) => COLON_GUTTER.test(l)))
      return `${lines.map((l) => l.replace(COLON_GUTTER, "")).join("\n")}\n`;
  }
  const lines = text.split("\n");
  const numbered = lines.filter((l) => GUTTER.test(l)).length;
  if (numbered < Math.max(1, lines.length * 0.6)) return text;
  return lines.map((l) => l.replace(GUTTER, "")).join("\n");
}

/**
 * A tool's output as the tool produced it: injected reminders removed, and for file reads the gutter too, so the
 * text is the file's. Returns how many reminder blocks went, for the event's meta.
 */
export function cleanToolOutput(output: string, read: boolean): { text: string; reminders: number } {
  let reminders = 0;
  const text = output.includes("<system-reminder>")
    ? output.replace(REMINDER, (m) => {
        reminders++;
        return m.startsWith("\n") && m.endsWith("\n") ? "\n" : "";
      })
    : output;
  return { text: read ? withoutGutter(text) : text, reminders };
}

export function workdirOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const w = (input as Record<string, unknown>)["workdir"] ?? (input as Record<string, unknown>)["cwd"];
  return typeof w === "string" && w.startsWith("/") ? w : null;
}

export function writtenText(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const a = input as Record<string, unknown>;
  const v = a["content"] ?? a["new_string"] ?? a["newText"] ?? a["file_text"] ?? a["file_content"];
  return typeof v === "string" ? v : null;
}

/**
 * The text of a tool call: `key: value` lines, so paths, old/new text and patterns read (and search) as
 * written, without JSON escaping; nested values stay JSON.
 */
export function renderInput(input: unknown): string {
  if (typeof input === "string") return input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return safeJson(input);
  let out = "";
  for (const key in input) {
    const v = (input as Record<string, unknown>)[key];
    const text = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : safeJson(v);
    out = out === "" ? `${key}: ${text}` : `${out}\n${key}: ${text}`;
  }
  return out;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return String(v);
  }
}
