/**
 * Transcripts that disappear or move. Agents delete old transcripts (Claude Code cleans up after 30 days), and
 * keeping their history is part of cairn's point: a file missing from a root it was indexed under is marked gone
 * and its sessions stay, marked `source_gone`, until `cairn prune`. A file that reappears is unmarked. A file that
 * moved (same inode, or the same bytes up to where it was read) is carried over to its new path instead of being
 * read again as a new file beside a stale row.
 */
import { closeSync, existsSync, openSync, readSync, type Stats } from "node:fs";
import type { FileStamp, Store } from "../store/types.ts";
import { startTranscript } from "../topology/transcript.ts";
import { CHECK_BYTES, headHash, stillHolds } from "./file-check.ts";
import { under } from "./plan.ts";

export interface Move {
  from: string;
  to: string;
  /** The file at `to`: its inode, and its mtime when it holds exactly what was read (nothing new to read). */
  inode: number;
  mtime_ms: number | null;
}

export interface SourceChanges {
  moved: Move[];
  /** Files newly found missing. */
  gone: string[];
  /** Files still missing that were marked gone before (counted, and left as they were marked). */
  stillGone: number;
  /** Files marked gone that are back. */
  back: string[];
}

/**
 * Compares the files found under `roots` with the ones the index knows. Reads only: `applySourceChanges` writes.
 * `stamps` is updated for moved files, so the caller sees them under their new paths.
 */
export function findSourceChanges(
  store: Store,
  roots: readonly string[],
  files: readonly string[],
  stats: ReadonlyArray<Stats | null>,
  stamps: Map<string, FileStamp>,
  /** Folders that could not be listed: what the index holds under them is not known to be gone. */
  unreadable: readonly string[] = [],
): SourceChanges {
  const listed = new Set(files);
  const missing: string[] = [];
  const back: string[] = [];
  const stillGone: string[] = [];
  for (const [path, stamp] of stamps) {
    if (listed.has(path)) {
      if (stamp.gone) back.push(path);
    } else if (under(path, roots) && !under(path, unreadable) && !existsSync(path)) {
      // Its gone_at stays when it was first found missing (`cairn prune` lists them oldest first).
      if (stamp.gone) stillGone.push(path);
      else missing.push(path);
    }
  }
  // A move's source: a file gone before (anywhere), one missing now, or one whose path now holds another file (a
  // log rotated: the old file renamed, a new one started under its name).
  const replaced = new Set<string>();
  files.forEach((path, i) => {
    const stamp = stamps.get(path);
    const st = stats[i];
    if (stamp && st && stamp.inode !== st.ino) replaced.add(path);
  });
  const candidates = new Map<number, string[]>();
  const missingNow = new Set(missing);
  for (const [path, stamp] of stamps) {
    if (!(stamp.gone || missingNow.has(path) || replaced.has(path))) continue;
    const list = candidates.get(stamp.inode) ?? [];
    list.push(path);
    candidates.set(stamp.inode, list);
  }
  const moved: Move[] = [];
  const taken = new Set<string>();
  if (candidates.size > 0) {
    // A move across file systems (a copy, then a delete) keeps the bytes but not the inode: match those by the hash
    // of their first 4 KiB, when there are few enough candidates to look at.
    let byHead: Map<string, string[]> | undefined;
    const sameHead = (to: string): string[] => {
      if (!byHead) {
        byHead = new Map();
        const all = [...candidates.values()].flat();
        for (const path of all.length <= 2_000 ? all : []) {
          const prev = store.getFileState(path);
          if (!prev || prev.offset < CHECK_BYTES) continue;
          byHead.set(prev.head_hash, [...(byHead.get(prev.head_hash) ?? []), path]);
        }
      }
      if (byHead.size === 0) return [];
      return byHead.get(headOf(to)) ?? [];
    };
    files.forEach((to, i) => {
      const st = stats[i];
      if (!st || stamps.has(to)) return;
      const fits = (p: string) => !taken.has(p) && holds(store, p, to, st.size);
      const from = (candidates.get(st.ino) ?? []).find(fits) ?? sameHead(to).find(fits);
      if (!from) return;
      taken.add(from);
      const stamp = stamps.get(from)!;
      const same = stamp.size === st.size;
      moved.push({ from, to, inode: st.ino, mtime_ms: same ? st.mtimeMs : null });
      stamps.delete(from);
      stamps.set(to, { ...stamp, inode: st.ino, mtime_ms: same ? st.mtimeMs : stamp.mtime_ms, gone: false });
    });
  }
  return {
    moved,
    gone: missing.filter((p) => !taken.has(p)),
    back,
    stillGone: stillGone.filter((p) => !taken.has(p)).length,
  };
}

function headOf(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return "";
  }
  try {
    return headHash(fd, CHECK_BYTES);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the file at `to` holds what the index read from `from`, and would be read the same way there (what a
 * reader takes from a file's name, such as a session id from its stem, is unchanged).
 */
function holds(store: Store, from: string, to: string, size: number): boolean {
  const prev = store.getFileState(from);
  if (!prev?.state) return false;
  let fd: number;
  try {
    fd = openSync(to, "r");
  } catch {
    return false;
  }
  try {
    if (!stillHolds(fd, size, prev)) return false;
    const head = firstLines(fd);
    const before = startTranscript(from, head);
    const after = startTranscript(to, head);
    return before !== null && JSON.stringify(retarget(before, from, to)) === JSON.stringify(after);
  } finally {
    closeSync(fd);
  }
}

function firstLines(fd: number): string[] {
  const buf = Buffer.alloc(64 * 1024);
  const n = readSync(fd, buf, 0, buf.length, 0);
  return buf.subarray(0, n).toString("utf8").split("\n").slice(0, 8);
}

/** A parser state with every value that named the old path naming the new one. */
function retarget<T>(state: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(state).split(JSON.stringify(from)).join(JSON.stringify(to))) as T;
}

export function applySourceChanges(store: Store, changes: SourceChanges, now: Date): void {
  for (const m of changes.moved) {
    const prev = store.getFileState(m.from);
    if (!prev) continue;
    store.moveFile(m.from, {
      ...prev,
      path: m.to,
      inode: m.inode,
      mtime_ms: m.mtime_ms ?? prev.mtime_ms,
      state: retarget(prev.state, m.from, m.to),
    });
  }
  if (changes.gone.length > 0) store.markGone(changes.gone, now.toISOString());
  if (changes.back.length > 0) store.markGone(changes.back, null);
}
