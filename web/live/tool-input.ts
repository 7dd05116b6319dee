/**
 * What a live tool call does, read from its input whatever the driver named the fields: pi (`path`, `oldText`,
 * `newText`, `content`, `command`), Claude (`file_path`, `old_string`, `new_string`, `content`, `command`,
 * `edits`) and the scripted driver (either). The card's one-line summary and its diff come from this.
 */
import { countLines, diffStats } from "../ui/diff-view.tsx";

export type ToolAction =
  | { kind: "shell"; command: string }
  | { kind: "edit"; path: string; edits: { before: string; after: string }[] }
  | { kind: "write"; path: string; content: string }
  | { kind: "read"; path: string }
  | { kind: "search"; pattern: string; path?: string }
  | { kind: "other"; detail: string };

type Fields = Record<string, unknown>;

const str = (o: Fields, ...names: string[]): string | undefined => {
  for (const name of names) {
    const v = o[name];
    if (typeof v === "string") return v;
  }
  return undefined;
};

function editsOf(o: Fields): { before: string; after: string }[] {
  const one = {
    before: str(o, "oldText", "old_string", "old_str", "old"),
    after: str(o, "newText", "new_string", "new_str", "new"),
  };
  if (one.before !== undefined && one.after !== undefined) return [{ before: one.before, after: one.after }];
  const list = Array.isArray(o["edits"]) ? (o["edits"] as unknown[]) : [];
  return list.flatMap((e) => {
    if (typeof e !== "object" || e === null) return [];
    const before = str(e as Fields, "oldText", "old_string", "old_str", "old");
    const after = str(e as Fields, "newText", "new_string", "new_str", "new");
    return before !== undefined && after !== undefined ? [{ before, after }] : [];
  });
}

export function toolAction(toolName: string, input: unknown): ToolAction {
  const name = toolName.toLowerCase();
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { kind: "other", detail: typeof input === "string" ? input : "" };
  }
  const o = input as Fields;
  const path = str(o, "path", "file_path", "filePath", "notebook_path");
  const command = str(o, "command", "cmd");
  if (command !== undefined && /bash|shell|exec|command|terminal|run/.test(name)) return { kind: "shell", command };
  if (path !== undefined) {
    const edits = editsOf(o);
    if (edits.length > 0) return { kind: "edit", path, edits };
    const content = str(o, "content", "contents", "text");
    if (content !== undefined && /write|create/.test(name)) return { kind: "write", path, content };
    if (/read|view|cat|open/.test(name)) return { kind: "read", path };
  }
  const pattern = str(o, "pattern", "query", "regex", "glob");
  if (pattern !== undefined)
    return path !== undefined ? { kind: "search", pattern, path } : { kind: "search", pattern };
  if (command !== undefined) return { kind: "shell", command };
  if (path !== undefined) return { kind: "other", detail: path };
  const first = Object.values(o).find((v): v is string => typeof v === "string");
  return { kind: "other", detail: first ?? "" };
}

/** One line that says what the call does: the command, or the path and how many lines it touches. */
export function summarize(action: ToolAction): string {
  switch (action.kind) {
    case "shell":
      return `$ ${oneLine(action.command)}`;
    case "edit": {
      let added = 0;
      let removed = 0;
      for (const e of action.edits) {
        const s = diffStats(e.before, e.after);
        added += s.added;
        removed += s.removed;
      }
      return `${action.path} · +${added} −${removed}`;
    }
    case "write": {
      const n = countLines(action.content);
      return `${action.path} · ${n} ${n === 1 ? "line" : "lines"}`;
    }
    case "read":
      return action.path;
    case "search":
      return action.path ? `${oneLine(action.pattern)} in ${action.path}` : oneLine(action.pattern);
    case "other":
      return oneLine(action.detail);
  }
}

function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function outputText(output: unknown): string {
  if (output === undefined || output === null) return "";
  if (typeof output === "string") return output;
  return JSON.stringify(output, null, 2) ?? String(output);
}
