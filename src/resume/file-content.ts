/**
 * The freshest text of each file known from the transcript alone (resume-method §4.4): a whole-file read or a
 * write sets it, later edits (`old → new`) are applied to it, anything the transcript cannot replay (a shell
 * `sed -i`, a patch, an edit whose old text is not found) makes it unknown until the next read or write.
 */
import type { SessionEvent } from "../topology/types.ts";
import { stripLineNumbers, toolArgs } from "./tool-args.ts";
import type { Unit } from "./units.ts";

export interface FileContent {
  key: string;
  content: string;
  /** The read or write the text starts from, then each edit applied. */
  cites: string[];
  lastOrdinal: number;
  edits: number;
}

const READ_KEYS = ["file_path", "path", "offset", "limit", "pages", "view_range", "command"] as const;
const WRITE_KEYS = ["file_path", "path", "content", "contents", "file_text", "command"] as const;
const EDIT_KEYS = [
  "file_path",
  "path",
  "old_string",
  "new_string",
  "oldText",
  "newText",
  "old_str",
  "new_str",
  "edits",
  "replace_all",
  "command",
] as const;

/** Claude Code appends reminders to file reads; they are not the file. */
function withoutReminders(text: string): string {
  const i = text.indexOf("\n<system-reminder>");
  return i === -1 ? text : text.slice(0, i);
}

function editPairs(args: Record<string, string>): Array<{ old: string; next: string }> | null {
  if (args["edits"] !== undefined) {
    try {
      const list = JSON.parse(args["edits"]) as unknown;
      if (!Array.isArray(list)) return null;
      const out: Array<{ old: string; next: string }> = [];
      for (const x of list) {
        const o = (typeof x === "object" && x !== null ? x : {}) as Record<string, unknown>;
        const old = o["old_string"] ?? o["oldText"] ?? o["old_str"];
        const next = o["new_string"] ?? o["newText"] ?? o["new_str"];
        if (typeof old !== "string" || typeof next !== "string") return null;
        out.push({ old, next });
      }
      return out;
    } catch {
      return null;
    }
  }
  const old = args["old_string"] ?? args["oldText"] ?? args["old_str"];
  const next = args["new_string"] ?? args["newText"] ?? args["new_str"];
  return old === undefined || next === undefined ? null : [{ old, next }];
}

export function fileContentsOf(units: readonly Unit[]): Map<string, FileContent> {
  const files = new Map<string, FileContent | null>();
  for (const u of units) {
    if (u.kind !== "tool" || !u.result || u.files.length === 0) continue;
    const ok = u.result.status === "ok";
    const name = (u.tool ?? "").toLowerCase();
    const { key, op } = u.files[0]!;
    if (!ok) continue;
    if (u.command !== null || u.files.length > 1) {
      // Shell commands and multi-file patches change files in ways the transcript does not show.
      for (const f of u.files) if (f.op !== "read") files.set(f.key, null);
      continue;
    }
    if (op === "read" && /read|view/.test(name)) {
      const args = toolArgs(u.call.text, READ_KEYS);
      if (args["offset"] !== undefined || args["limit"] !== undefined || args["view_range"] !== undefined) continue;
      files.set(key, start(key, stripLineNumbers(withoutReminders(u.result.text)), u.result));
    } else if (op === "write") {
      const a = toolArgs(u.call.text, WRITE_KEYS);
      const content = a["content"] ?? a["contents"] ?? a["file_text"];
      files.set(key, content === undefined ? null : start(key, content, u.call));
    } else if (op === "edit") {
      const known = files.get(key);
      const pairs = editPairs(toolArgs(u.call.text, EDIT_KEYS));
      if (!known || !pairs) {
        files.set(key, null);
        continue;
      }
      const all = /replace_all: true/.test(u.call.text);
      let text = known.content;
      let applied = true;
      for (const p of pairs) {
        if (!text.includes(p.old)) {
          applied = false;
          break;
        }
        text = all ? text.split(p.old).join(p.next) : text.replace(p.old, () => p.next);
      }
      files.set(
        key,
        applied
          ? {
              ...known,
              content: text,
              cites: [...known.cites, u.call.event_id],
              lastOrdinal: u.ordinal,
              edits: known.edits + 1,
            }
          : null,
      );
    } else if (op === "delete" || op === "move") files.set(key, null);
  }
  const out = new Map<string, FileContent>();
  for (const [k, v] of files) if (v) out.set(k, v);
  return out;
}

function start(key: string, content: string, e: SessionEvent): FileContent {
  return { key, content, cites: [e.event_id], lastOrdinal: e.ordinal, edits: 0 };
}
