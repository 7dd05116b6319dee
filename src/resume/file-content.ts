/**
 * The freshest text of each file known from the transcript alone (resume-method §4.4): a whole-file read or a
 * write sets it, later edits (`old → new`) are applied to it, anything the transcript cannot replay (a shell
 * `sed -i`, a patch, an edit whose old text is not found) makes it unknown until the next read or write.
 */
import { toolInputOfEvent } from "../topology/tool-call-input.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { Unit } from "./units.ts";

export interface FileContent {
  key: string;
  content: string;
  /** The read or write the text starts from, then each edit applied. */
  cites: string[];
  lastOrdinal: number;
  edits: number;
}

export function fileContentsOf(units: readonly Unit[]): Map<string, FileContent> {
  const files = new Map<string, FileContent | null>();
  for (const u of units) {
    if (u.kind !== "tool" || !u.result || u.files.length === 0) continue;
    const ok = u.result.status === "ok";
    const input = toolInputOfEvent(u.call);
    const { key, op } = u.files[0]!;
    if (!ok) continue;
    if (u.command !== null || u.files.length > 1) {
      // Shell commands and multi-file patches change files in ways the transcript does not show.
      for (const f of u.files) if (f.op !== "read") files.set(f.key, null);
      continue;
    }
    if (op === "read" && input?.kind === "read") {
      // Part of a file is not the file. The normalizer already took the reminders and gutter off the output.
      if (input.partial !== true) files.set(key, start(key, u.result.text, u.result));
    } else if (op === "write") {
      const content = input?.kind === "write" ? input.content : undefined;
      files.set(key, content === undefined ? null : start(key, content, u.call));
    } else if (op === "edit") {
      const known = files.get(key);
      const edits = input?.kind === "edit" ? input.edits : undefined;
      if (!known || !edits) {
        files.set(key, null);
        continue;
      }
      let text = known.content;
      let applied = true;
      for (const p of edits) {
        if (p.new === undefined || p.old === "" || !text.includes(p.old)) {
          applied = false;
          break;
        }
        const next = p.new;
        text = p.all ? text.split(p.old).join(next) : text.replace(p.old, () => next);
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
