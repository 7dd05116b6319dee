/** Finds transcript files under folders. */
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isTranscriptFile } from "../readers/roots.ts";

/** Transcript files under `path` (or `path` itself when it is a file), sorted for a stable order. */
export function findTranscripts(path: string): string[] {
  const st = statSync(path);
  if (st.isFile()) return [path];
  const out: string[] = [];
  walk(path, out, 0);
  return out.sort();
}

function walk(dir: string, out: string[], depth: number): void {
  if (depth > 12) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folders are skipped; the caller sees fewer files, not a crash
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".git")) continue;
      walk(p, out, depth + 1);
    } else if (e.isFile() && isTranscriptFile(e.name)) out.push(p);
  }
}
