/**
 * File actions (read, edit, write, delete, move) from file tools and from shell commands that touch files.
 * pi's own tracking sees only its read/write/edit tools; `sed -i`, `mv`, redirections and `apply_patch` count here.
 */
import { posix } from "node:path";
import { agentToolNames } from "../readers/agents.ts";
import { effectiveWords, type ListItem, parseShell, type SimpleCommand, unwrapShell } from "./shell.ts";
import { type ToolInput, toolInputOf } from "./tool-call-input.ts";

export const FILE_OPS = ["read", "edit", "write", "delete", "move"] as const;
export type FileOp = (typeof FILE_OPS)[number];

export interface FileAction {
  op: FileOp;
  path: string;
  /** For moves: the new path. */
  to?: string;
  /** Lines added and removed, when the call shows them. */
  added?: number;
  removed?: number;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function s(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function lineCount(text: string | undefined): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * Each agent's own read, patch and editor tools (its manifest's `tools`), by the shared name of their kind. Its own write and
 * edit tools need no entry: a name no case knows is read through its typed input, which knows every argument name.
 */
const OWN_NAMES = new Map<string, string>([
  ...agentToolNames("read").map((n) => [n, "read"] as const),
  ...agentToolNames("patch").map((n) => [n, "apply_patch"] as const),
  ...agentToolNames("editor").map((n) => [n, "str_replace_editor"] as const),
]);

/** File actions of a non-shell tool call, by tool name and arguments. */
export function fileActionsOfTool(toolName: string, input: unknown): FileAction[] {
  const base = toolName.toLowerCase().replace(/^mcp__[^_]+(?:_[^_]+)*__/, "");
  const name = OWN_NAMES.get(base) ?? base;
  const a = rec(input);
  const path =
    s(a["file_path"]) ??
    s(a["path"]) ??
    s(a["notebook_path"]) ??
    s(a["filePath"]) ??
    s(a["filepath"]) ??
    s(a["filename"]) ??
    s(a["target_file"]);
  switch (name) {
    case "read":
    case "read_file":
    case "view":
    case "view_image":
    case "notebookread":
    case "read_text_file":
    case "read_media_file":
      return path ? [{ op: "read", path }] : [];
    case "write":
    case "write_file":
    case "create_file":
    case "create": // Copilot CLI: path + file_text
      return path
        ? [{ op: "write", path, added: lineCount(s(a["content"]) ?? s(a["contents"]) ?? s(a["file_text"])) }]
        : [];
    case "edit":
    case "edit_file":
    case "replace": // Gemini CLI and Qwen Code: file_path, old_string, new_string
    case "str_replace_editor":
    case "str_replace_based_edit_tool":
    case "notebookedit":
    case "multiedit": {
      if (!path) return [];
      if (name.startsWith("str_replace") && s(a["command"]) === "view") return [{ op: "read", path }];
      if (name.startsWith("str_replace") && s(a["command"]) === "create")
        return [{ op: "write", path, added: lineCount(s(a["file_text"])) }];
      // A list of edits, or one edit under `edit` (Kimi CLI's `{old, new}`, or a list of them), or the call itself.
      const list = a["edits"] ?? a["edit"];
      const edits = Array.isArray(list) ? list.map(rec) : typeof list === "object" && list !== null ? [rec(list)] : [a];
      let added = 0;
      let removed = 0;
      for (const e of edits) {
        added += lineCount(
          s(e["new_string"]) ?? s(e["newText"]) ?? s(e["new_str"]) ?? s(e["new_source"]) ?? s(e["new"]),
        );
        removed += lineCount(s(e["old_string"]) ?? s(e["oldText"]) ?? s(e["old_str"]) ?? s(e["old"]));
      }
      return [{ op: "edit", path, added, removed }];
    }
    // Cline: `editor` edits with old_text/new_text, or creates the file when no old_text is given.
    case "editor":
      if (!path || a["insert_line"] !== undefined) return [];
      return typeof a["old_text"] === "string"
        ? [{ op: "edit", path, added: lineCount(s(a["new_text"])), removed: lineCount(s(a["old_text"])) }]
        : [{ op: "write", path, added: lineCount(s(a["new_text"])) }];
    case "read_files": {
      const files = Array.isArray(a["files"]) ? a["files"].map(rec) : [];
      return files.flatMap((f) => (s(f["path"]) ? [{ op: "read" as const, path: s(f["path"])! }] : []));
    }
    case "apply_patch": {
      const patch = s(a["input"]) ?? s(a["patch"]) ?? (typeof input === "string" ? input : undefined);
      if (!patch) return fileActionsOfInput(toolInputOf(toolName, input));
      const actions = fileActionsOfPatch(patch);
      // A patch whose text names no file (gptme's conflict-marker blocks) edits the file the call names.
      return actions.length === 0 && path ? [{ op: "edit", path }] : actions;
    }
    case "delete_file":
      return path ? [{ op: "delete", path }] : [];
    case "move_file": {
      const from = s(a["source"]) ?? path;
      const to = s(a["destination"]);
      return from && to ? [{ op: "move", path: from, to }] : [];
    }
    default:
      return fileActionsOfInput(toolInputOf(toolName, input));
  }
}

/** A tool no case names (an agent's own write and edit tools, from its manifest), by the typed input it was read as. */
function fileActionsOfInput(typed: ToolInput): FileAction[] {
  if (!typed.path) return [];
  if (typed.kind === "write") return [{ op: "write", path: typed.path, added: lineCount(typed.content) }];
  if (typed.kind !== "edit") return [];
  const edits = typed.edits ?? [];
  const added = edits.reduce((n, e) => n + lineCount(e.new), 0);
  const removed = edits.reduce((n, e) => n + lineCount(e.old), 0);
  return [{ op: "edit", path: typed.path, added, removed }];
}

/** The files an `apply_patch` envelope touches (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`). */
export function fileActionsOfPatch(patch: string): FileAction[] {
  const out: FileAction[] = [];
  let current: FileAction | null = null;
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (m) {
      const op: FileOp = m[1] === "Add" ? "write" : m[1] === "Delete" ? "delete" : "edit";
      current = { op, path: m[2]!.trim(), added: 0, removed: 0 };
      out.push(current);
      continue;
    }
    const mv = /^\*\*\* Move to: (.+)$/.exec(line);
    if (mv && current) {
      current.op = "move";
      current.to = mv[1]!.trim();
      continue;
    }
    if (!current || line.startsWith("***")) continue;
    if (line.startsWith("+")) current.added = (current.added ?? 0) + 1;
    else if (line.startsWith("-")) current.removed = (current.removed ?? 0) + 1;
  }
  return out;
}

const READERS = new Set(["cat", "head", "tail", "nl", "less", "more", "bat", "batcat", "wc", "view"]);
const NOT_FILES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "-", "/dev/tty"]);

function plainPath(w: string | undefined): string | null {
  if (!w || w.startsWith("-") || w.includes("$") || w.includes("*") || w.includes("`") || NOT_FILES.has(w)) return null;
  if (/^[&|<>]/.test(w) || /^\d+$/.test(w)) return null;
  return w;
}

/**
 * File actions of a shell command line. A `cd` earlier in the line moves where later relative paths point
 * (`cd packages/app && sed -i … src/x.ts` edits `packages/app/src/x.ts`).
 */
export function fileActionsOfShell(command: string | ListItem[], depth = 0): FileAction[] {
  const out: FileAction[] = [];
  let dir: string | null = null;
  const place = (p: string) => (dir === null || p.startsWith("/") || p.startsWith("~") ? p : posix.join(dir, p));
  for (const item of typeof command === "string" ? parseShell(command) : command) {
    for (const cmd of item.pipeline) {
      const inner = depth < 3 ? unwrapShell(cmd.words) : null;
      if (inner !== null) {
        for (const a of fileActionsOfShell(inner, depth + 1))
          out.push({ ...a, path: place(a.path), ...(a.to ? { to: place(a.to) } : {}) });
        continue;
      }
      const words = effectiveWords(cmd.words);
      if (words[0] === "cd") {
        const target = words[1];
        dir =
          !target || target === "-" || target.includes("$")
            ? null
            : target.startsWith("/") || target.startsWith("~")
              ? target
              : posix.join(dir ?? ".", target);
        continue;
      }
      for (const a of actionsOfSimple(cmd))
        out.push({ ...a, path: place(a.path), ...(a.to ? { to: place(a.to) } : {}) });
    }
  }
  return out;
}

function operands(words: string[]): string[] {
  const out: string[] = [];
  let opts = true;
  for (const w of words) {
    if (opts && w === "--") {
      opts = false;
      continue;
    }
    if (opts && w.startsWith("-") && w !== "-") continue;
    out.push(w);
  }
  return out;
}

function actionsOfSimple(cmd: SimpleCommand): FileAction[] {
  const out: FileAction[] = [];
  for (const r of cmd.redirects) {
    if (/>/.test(r.op) && !r.op.endsWith("&")) {
      const p = plainPath(r.target);
      if (p) out.push({ op: "write", path: p });
    }
  }
  const words = effectiveWords(cmd.words);
  const prog = (words[0] ?? "").replace(/^.*\//, "");
  const args = words.slice(1);
  const ops = operands(args);
  const push = (op: FileOp, w: string | undefined, to?: string) => {
    const p = plainPath(w);
    if (p) out.push(to ? { op, path: p, to } : { op, path: p });
  };
  switch (prog) {
    case "sed": {
      const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"));
      // BSD sed takes the backup suffix as its own word (`sed -i '' 's/a/b/' f`, `sed -i .bak …`); GNU sed attaches
      // it (`-i.bak`). A separate word after `-i` that is empty or looks like a suffix is not the script.
      const bsd = args.findIndex(
        (a, i) => /^-[a-zA-Z]*i$/.test(a) && (args[i + 1] === "" || /^\.[\w.~-]*$/.test(args[i + 1] ?? "-")),
      );
      const rest = bsd === -1 ? args : [...args.slice(0, bsd + 1), ...args.slice(bsd + 2)];
      const hasScriptFlag = rest.some((a) => a === "-e" || a === "-f" || a === "--expression");
      const files = hasScriptFlag ? filesAfterScriptFlags(rest) : operands(rest).slice(1);
      for (const f of files) push(inPlace ? "edit" : "read", f);
      break;
    }
    case "mv":
    case "git-mv":
      if (ops.length === 2) push("move", ops[0], plainPath(ops[1]) ?? undefined);
      break;
    case "cp":
      if (ops.length >= 2) push("write", ops[ops.length - 1]);
      break;
    case "rm":
    case "unlink":
      for (const f of ops) push("delete", f);
      break;
    case "touch":
      for (const f of ops) push("write", f);
      break;
    case "tee":
      for (const f of ops) push("write", f);
      break;
    case "git": {
      const sub = args[0];
      const rest = operands(args.slice(1));
      if (sub === "mv" && rest.length === 2) push("move", rest[0], plainPath(rest[1]) ?? undefined);
      else if (sub === "rm") for (const f of rest) push("delete", f);
      else if (sub === "checkout" && args.includes("--"))
        for (const f of args.slice(args.indexOf("--") + 1)) push("write", f);
      break;
    }
    case "perl":
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a))) for (const f of ops.slice(1)) push("edit", f);
      break;
    default:
      if (READERS.has(prog)) for (const f of ops) push("read", f);
  }
  return out;
}

function filesAfterScriptFlags(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-e" || a === "-f" || a === "--expression") {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    out.push(a);
  }
  return out;
}
