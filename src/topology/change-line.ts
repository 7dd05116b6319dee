/**
 * A change a tool call makes, in one line a person reads: the file and what changes in it (`src/a.ts: const a = 1 →
 * const a = 2`, `src/a.ts (+3 −1 lines)`), read from the typed input whatever the agent named its arguments, so no
 * agent's edit is shown as the first of its raw arguments ("replace_all: false").
 */
import type { TextEdit, ToolInput } from "./tool-call-input.ts";

/** What fits beside the file as `old → new`; longer, the change is counted in lines. */
const INLINE = 48;

function lineCount(text: string | undefined): number {
  if (text === undefined || text === "") return 0;
  return text.replace(/\n$/, "").split("\n").length;
}

function counted(added: number, removed: number): string {
  return `+${added} −${removed} lines`;
}

function plural(lines: number): string {
  return `${lines} ${lines === 1 ? "line" : "lines"}`;
}

/** A path as people know it: relative to the session's folder when inside it. */
export function shownPath(path: string, cwd: string | null | undefined): string {
  if (cwd) {
    const base = cwd.replace(/[\\/]+$/, "");
    if (path.startsWith(`${base}/`) || path.startsWith(`${base}\\`)) return path.slice(base.length + 1);
  }
  return path;
}

function editLine(file: string, edits: readonly TextEdit[]): string {
  const one = edits.length === 1 ? edits[0]! : null;
  if (one && one.new !== undefined) {
    const [from, to] = [one.old.trim(), one.new.trim()];
    if (!from.includes("\n") && !to.includes("\n") && from.length + to.length <= INLINE && from !== "")
      return `${file}: ${from} → ${to || "(removed)"}${one.all ? " (every occurrence)" : ""}`;
  }
  const removed = edits.reduce((n, e) => n + lineCount(e.old), 0);
  const added = edits.reduce((n, e) => n + lineCount(e.new), 0);
  const many = edits.length > 1 ? `, ${edits.length} edits` : "";
  return `${file} (${counted(added, removed)}${many})`;
}

/** The files an `apply_patch` envelope or a unified diff changes, with the lines it adds and removes. */
function patchLine(patch: string, cwd: string | null | undefined): string | null {
  const files: string[] = [];
  let added = 0;
  let removed = 0;
  for (const line of patch.split("\n")) {
    const named = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/.exec(line) ?? /^\+\+\+ (?:b\/)?(.+)$/.exec(line);
    if (named) {
      const f = shownPath(named[1]!.trim(), cwd);
      if (f !== "/dev/null" && !files.includes(f)) files.push(f);
    } else if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  if (files.length === 0) return null;
  const shown = files.length > 3 ? `${files.slice(0, 3).join(", ")} and ${files.length - 3} more` : files.join(", ");
  return `${shown} (${counted(added, removed)})`;
}

/** The one line for a call that changes files, or null for any other call (or one whose input says too little). */
export function changeLine(input: ToolInput | undefined, cwd?: string | null): string | null {
  if (!input) return null;
  const file = input.path ? shownPath(input.path, cwd) : null;
  switch (input.kind) {
    case "edit":
      return file ? editLine(file, input.edits ?? []) : null;
    case "write":
      return file
        ? `${file} (${input.content === undefined ? "written" : `${plural(lineCount(input.content))} written`})`
        : null;
    case "patch": {
      const line = input.patch ? patchLine(input.patch, cwd) : null;
      return line ?? (file ? `${file} (patched)` : null);
    }
    default:
      return null;
  }
}
