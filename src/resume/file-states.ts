/**
 * Latest file states (resume-method §4.4): per file, reads, edits and writes, the lines added and removed, the last
 * touch, and whether it was deleted or moved. Built from the topology's `file_action` events, which cover file
 * tools and shell commands that write files (`sed -i`, `mv`, redirections, `apply_patch`).
 */
import type { SessionEvent } from "../topology/types.ts";
import type { LedgerFile } from "./ledger-types.ts";

/** Shown relative to the working directory when the file is inside it. */
export function displayPath(key: string, cwd: string | null): string {
  if (!cwd) return key;
  const root = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  return key.startsWith(`${root}/`) ? key.slice(root.length + 1) : key;
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export function fileStatesOf(events: readonly SessionEvent[], cwd: string | null): LedgerFile[] {
  const files = new Map<string, LedgerFile>();
  const get = (key: string, e: SessionEvent): LedgerFile => {
    let f = files.get(key);
    if (!f) {
      f = {
        key,
        path: displayPath(key, cwd),
        reads: 0,
        edits: 0,
        writes: 0,
        added: 0,
        removed: 0,
        failedEdits: 0,
        firstOrdinal: e.ordinal,
        lastOrdinal: e.ordinal,
        deleted: false,
        movedTo: null,
        modified: false,
        cites: [],
      };
      files.set(key, f);
    }
    f.lastOrdinal = e.ordinal;
    f.cites.push(e.event_id);
    return f;
  };
  for (const e of events) {
    if (e.event_type !== "file_action" || !e.file_path) continue;
    const op = e.meta["op"];
    const ok = e.status !== "error";
    // A read that failed (a missing file) touched nothing: the failure is in the ledger's failures.
    if (op === "read" && !ok) continue;
    const f = get(e.file_path, e);
    if (op === "read") {
      f.reads++;
      continue;
    }
    if (!ok) {
      f.failedEdits++;
      continue;
    }
    f.modified = true;
    if (op === "edit") f.edits++;
    else if (op === "write") {
      f.writes++;
      f.deleted = false;
    } else if (op === "delete") f.deleted = true;
    else if (op === "move") {
      const to = typeof e.meta["to"] === "string" ? (e.meta["to"] as string) : null;
      f.movedTo = to ? displayPath(to, cwd) : null;
      if (to) {
        const target = get(to, e);
        target.modified = true;
        target.writes++;
      }
    }
    f.added += num(e.meta["added"]);
    f.removed += num(e.meta["removed"]);
  }
  // Newest first; the path breaks ties so the order never depends on insertion.
  return [...files.values()].sort((a, b) => b.lastOrdinal - a.lastOrdinal || (a.path < b.path ? -1 : 1));
}
