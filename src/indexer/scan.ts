/** Finds transcript files under folders. */
import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { isTranscriptFile } from "../readers/roots.ts";

/** Transcript files under `path` (or `path` itself when it is a file), sorted for a stable order. */
export function findTranscripts(path: string, shallow = false): string[] {
  const st = statSync(path);
  if (st.isFile()) return [path];
  const out: string[] = [];
  walk(path, out, shallow ? MAX_DEPTH : 0);
  return out.sort();
}

const MAX_DEPTH = 12;

function walk(dir: string, out: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folders are skipped; the caller sees fewer files, not a crash
  }
  // What `join(dir, name)` gives for any entry's name, found once: normalizing each entry's path again cost a tenth
  // of a no-change run over 300 files. A folder entry is never "." or "..", the only names join would rewrite.
  const prefix = join(dir, "x").slice(0, -1);
  for (const e of entries) {
    const p = prefix + e.name;
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".git")) continue;
      walk(p, out, depth + 1);
    } else if (e.isFile() && isTranscriptFile(e.name)) out.push(p);
  }
}

/**
 * A transcript's stat, by which the indexer sees it changed. An SQLite database in WAL mode takes new rows in its
 * `-wal` file and leaves the main file alone until a checkpoint, so the log's size and time count too.
 */
export function statTranscript(path: string): Stats {
  const st = statSync(path);
  if (!path.endsWith(".db")) return st;
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
  if (!wal) return st;
  return Object.assign(Object.create(Object.getPrototypeOf(st) as object) as Stats, st, {
    size: st.size + wal.size,
    mtimeMs: Math.max(st.mtimeMs, wal.mtimeMs),
  });
}
