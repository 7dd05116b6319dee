/** Finds transcript files under folders. */
import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { basename, join } from "node:path";
import { eventFiles, eventFolderOf } from "../readers/event-folder.ts";
import { isTranscriptFile } from "../readers/roots.ts";
import type { TranscriptRoot } from "../readers/vocabulary.ts";

/** A file or folder the indexer could not read, and why in words. */
export interface Unreadable {
  path: string;
  message: string;
}

/**
 * Transcript files under `path` (or `path` itself when it is a file), sorted for a stable order. A folder that
 * cannot be listed is skipped and told to `unreadable`: the rest is still indexed, and the run says what it missed.
 */
export function findTranscripts(
  path: string,
  shallow = false,
  unreadable: Unreadable[] = [],
  folder?: string,
): string[] {
  const st = statSync(path);
  if (st.isFile()) return [path];
  const out: string[] = [];
  walk(path, out, shallow ? MAX_DEPTH : 0, unreadable, folder);
  return out.sort();
}

/** The transcripts under one of the agents' roots, as the root says to look for them. */
export function rootTranscripts(root: TranscriptRoot, unreadable: Unreadable[] = []): string[] {
  if (root.search) return searchFiles(root.dir, root.search.name, root.search.depth);
  return findTranscripts(root.dir, root.shallow === true, unreadable, root.folder);
}

/** The most folders one search lists: HOME on a developer's machine holds hundreds of thousands. */
export const SEARCH_FOLDERS = 4000;
/** Folders a search never enters: dependencies, caches and macOS's application data, which hold no one's project. */
const NOT_SEARCHED = new Set(["node_modules", "__pycache__", "site-packages", "venv", "Library"]);

/**
 * Files named `name` in `dir` and in its folders up to `depth` levels below it, breadth first and in name order,
 * so that when `limit` folders have been listed the ones left out are the deepest. Hidden folders, the folders in
 * NOT_SEARCHED and links to folders are not entered, nor a folder holding `.git` (a repository: a file written at
 * its top is found there) or `pyvenv.cfg` (a virtual environment). A folder that cannot be listed is passed over
 * without a word: it is a person's folder, not an agent's store.
 */
export function searchFiles(dir: string, name: string, depth: number, limit = SEARCH_FOLDERS): string[] {
  const out: string[] = [];
  let level = [dir];
  let listed = 0;
  for (let d = 0; d <= depth && level.length > 0; d++) {
    const next: string[] = [];
    for (const folder of level) {
      if (listed++ >= limit) return out.sort();
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      const prefix = join(folder, "x").slice(0, -1);
      let stop = d === depth;
      const below: string[] = [];
      for (const e of entries) {
        if (e.name === name) {
          if (e.isFile() || (e.isSymbolicLink() && statSync(prefix + e.name, { throwIfNoEntry: false })?.isFile()))
            out.push(prefix + e.name);
        } else if (e.name === ".git" || e.name === "pyvenv.cfg") stop = true;
        else if (e.isDirectory() && !e.name.startsWith(".") && !NOT_SEARCHED.has(e.name)) below.push(prefix + e.name);
      }
      if (!stop) next.push(...below.sort());
    }
    level = next;
  }
  return out.sort();
}

/** Why the file system refused, without the raw `EACCES: …, scandir '…'` (the path is said beside it). */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "a loop of symbolic links";
    case "ENOTDIR":
      return "part of the path is not a folder";
    case "ENOENT":
      return "it is no longer there";
    case "EIO":
      return "an I/O error";
    default:
      return (error as Error).message;
  }
}

const MAX_DEPTH = 12;

function walk(dir: string, out: string[], depth: number, unreadable: Unreadable[], folder?: string): void {
  if (depth > MAX_DEPTH) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    unreadable.push({ path: dir, message: fsReason(error) });
    return;
  }
  // What `join(dir, name)` gives for any entry's name, found once: normalizing each entry's path again cost a tenth
  // of a no-change run over 300 files. A folder entry is never "." or "..", the only names join would rewrite.
  const prefix = join(dir, "x").slice(0, -1);
  const here = folder === undefined || basename(dir) === folder;
  for (const e of entries) {
    const p = prefix + e.name;
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".git")) continue;
      walk(p, out, depth + 1, unreadable, folder);
    } else if (
      here &&
      isTranscriptFile(e.name, p) &&
      (e.isFile() || (e.isSymbolicLink() && linksToFile(p, unreadable)))
    )
      out.push(p);
  }
}

/**
 * A transcript reached through a symbolic link is read like any other; a link to nothing is told to `unreadable`
 * (a transcript folder kept elsewhere and since moved), never skipped in silence.
 */
function linksToFile(path: string, unreadable: Unreadable[]): boolean {
  try {
    return statSync(path).isFile();
  } catch (error) {
    unreadable.push({ path, message: fsReason(error) });
    return false;
  }
}

/**
 * A transcript's stat, by which the indexer sees it changed. An SQLite database in WAL mode takes new rows in its
 * `-wal` file and leaves the main file alone until a checkpoint, so the log's size and time count too; a transcript
 * kept as a folder of event files (`Reader.eventFolder`) changes when one of them is added or rewritten, so theirs
 * count too.
 */
export function statTranscript(path: string): Stats {
  const st = statSync(path);
  const folder = eventFolderOf(path);
  if (folder !== null) return withParts(st, eventFileStats(folder));
  if (!/\.(db|sqlite)$/.test(path)) return st;
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
  return wal ? withParts(st, [wal]) : st;
}

/** The stat of a transcript with the sizes of its other parts added and the latest of their times. */
function withParts(st: Stats, parts: readonly Stats[]): Stats {
  if (parts.length === 0) return st;
  let size = st.size;
  let mtimeMs = st.mtimeMs;
  for (const p of parts) {
    size += p.size;
    mtimeMs = Math.max(mtimeMs, p.mtimeMs);
  }
  return Object.assign(Object.create(Object.getPrototypeOf(st) as object) as Stats, st, { size, mtimeMs });
}

/** The stats of a folder's event files; none when it is not there (yet). */
function eventFileStats(folder: string): Stats[] {
  let names: string[];
  try {
    names = eventFiles(readdirSync(folder));
  } catch {
    return [];
  }
  return names.flatMap((n) => statSync(join(folder, n), { throwIfNoEntry: false }) ?? []);
}
