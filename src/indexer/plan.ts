/**
 * What an index run looks at before it reads anything: the transcripts under its roots, their stats and the stamps
 * the index holds for them. When that shows nothing to do (every file unchanged, none missing or back), the run
 * ends there, without loading the readers, the normalizer or the writer's batch code (`idleResult`): a no-change
 * `cairn index` is then a scan and one query (docs/performance.md).
 */
import { existsSync, lstatSync, type Stats, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { TranscriptRoot } from "../readers/vocabulary.ts";
import type { FileStamp, Store } from "../store/types.ts";
import { fsReason, rootTranscripts, statTranscript, type Unreadable } from "./scan.ts";

export interface RunPlan {
  files: string[];
  /** Each file's stat, null when it could not be read. */
  stats: Array<Stats | null>;
  stamps: Map<string, FileStamp>;
  /** The roots, absolute: files the index knows under them and missing from disk are gone. */
  roots: string[];
  /** When the run started (`Date.now()`), for its duration. */
  started: number;
  /** Folders under the roots (or roots) that could not be listed: reported, and their files not taken for gone. */
  unreadable: Unreadable[];
}

/**
 * The transcripts under `paths`. A root that is not there is an agent not installed, and says nothing; one that is
 * there but cannot be read (no permission, a link to nothing, a loop of links), and every folder under a root that
 * cannot be listed, is told to `unreadable`.
 */
export function listTranscripts(
  paths: ReadonlyArray<string | TranscriptRoot>,
  unreadable: Unreadable[] = [],
): string[] {
  const files = new Set<string>();
  for (const p of paths) {
    const dir = typeof p === "string" ? p : p.dir;
    let found: boolean;
    try {
      found = statSync(dir, { throwIfNoEntry: false }) !== undefined;
    } catch (error) {
      unreadable.push({ path: dir, message: fsReason(error) });
      continue;
    }
    if (!found) {
      if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
        unreadable.push({ path: dir, message: "a symbolic link to something that is not there" });
      continue;
    }
    for (const f of rootTranscripts(typeof p === "string" ? { provider: "", dir } : p, unreadable)) files.add(f);
  }
  return [...files].sort();
}

/** `listed`: the transcripts under `paths` as a look just before listed them (`listTranscripts`), not listed again. */
export function planRun(
  store: Pick<Store, "fileStamps">,
  paths: ReadonlyArray<string | TranscriptRoot>,
  listed?: readonly string[],
): RunPlan {
  const started = Date.now();
  const unreadable: Unreadable[] = [];
  const files = listed ? [...listed] : listTranscripts(paths, unreadable);
  const stats = files.map((f) => {
    try {
      return statTranscript(f);
    } catch {
      return null;
    }
  });
  // One query for every file's stamp: an unchanged file then costs its stat and nothing else.
  const stamps = store.fileStamps();
  const roots = paths.map((p) => resolve(typeof p === "string" ? p : p.dir));
  return { files, stats, stamps, started, roots, unreadable };
}

export function under(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep));
}

/** Whether the index holds this file as it is on disk, derived by the current normalizer. */
export function unchanged(stamp: FileStamp | undefined, st: Stats | null | undefined): boolean {
  return !!stamp?.current && !!st && stamp.size === st.size && stamp.mtime_ms === st.mtimeMs && stamp.inode === st.ino;
}

/**
 * Nothing for the run to read or mark: every file unchanged and present, none newly missing from a root, none
 * back. Then the number of files still missing, marked gone by an earlier run; else null.
 */
export function idleGone(plan: RunPlan): number | null {
  if (plan.unreadable.length > 0) return null; // the indexer reports them
  const listed = new Set(plan.files);
  for (let i = 0; i < plan.files.length; i++) {
    const stamp = plan.stamps.get(plan.files[i]!);
    if (!unchanged(stamp, plan.stats[i]) || stamp!.gone) return null;
  }
  let gone = 0;
  for (const [path, stamp] of plan.stamps)
    if (!listed.has(path) && under(path, plan.roots) && !existsSync(path)) {
      if (!stamp.gone) return null;
      gone++;
    }
  return gone;
}
