/**
 * Files a reader asks for beside its transcripts (`Reader.context`), read for the indexer. One such file often
 * stands beside every transcript of a folder (Continue's `sessions.json`, an index that lists them all): it is read
 * once and kept while its size, time and inode stay the same, not read again for each transcript (reading it once
 * per session made indexing a folder quadratic in its sessions).
 */
import { readFileSync, statSync } from "node:fs";

/** The largest file beside a transcript read for its reader (a project registry, a folder marker). */
const CONTEXT_MAX = 4 * 1024 * 1024;
/** Files kept: a few folders' indexes at a time is all one run goes through in turn. */
const KEPT = 16;

interface Kept {
  size: number;
  mtimeMs: number;
  ino: number;
  text: string;
}

const kept = new Map<string, Kept>();

/** Its text (or its bytes as latin1, see `Reader.contextAsBytes`), or null when absent or too big. */
export function readContextFile(path: string, asBytes?: boolean): string | null {
  try {
    // Most context files are absent (a marker an older version wrote): no exception built for each.
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > CONTEXT_MAX) return null;
    const key = `${asBytes ? "b" : "t"}:${path}`;
    const hit = kept.get(key);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.ino === st.ino) return hit.text;
    const text = readFileSync(path, asBytes ? "latin1" : "utf8");
    kept.delete(key);
    kept.set(key, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, text });
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    return text;
  } catch {
    return null;
  }
}
