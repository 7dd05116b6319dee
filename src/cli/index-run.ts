/**
 * One index run as the CLI does it (`cairn index`, and `cairn` before its overview): read the transcripts, then
 * bundle and embed what they added, with progress on stderr. Ctrl-C stops either phase at its next safe point;
 * what was done is committed and the next run goes on from there.
 */

import { type IndexResult, indexPathsAsync } from "../indexer/indexer.ts";
import type { TranscriptRoot } from "../readers/roots.ts";
import type { RefreshResult } from "../search/vectors.ts";
import type { Store } from "../store/types.ts";
import type { CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";
import { updateVectors } from "./vectors.ts";

/** The exit code of a command stopped by Ctrl-C, as shells report a process ended by SIGINT. */
export const INTERRUPTED = 130;

export interface IndexRun {
  indexed: IndexResult;
  vectors: { ok: true; result: RefreshResult } | { ok: false; error: string } | null;
  interrupted: boolean;
}

export async function runIndex(
  store: Store,
  paths: ReadonlyArray<string | TranscriptRoot>,
  io: CliIo,
  opts: { quiet: boolean },
): Promise<IndexRun> {
  const progress = createProgress(io, opts.quiet);
  const indexed = await indexPathsAsync({ store, paths, signal: io.signal, onProgress: (p) => progress.update(p) });
  progress.done();
  if (indexed.interrupted) return { indexed, vectors: null, interrupted: true };
  const vectors = await updateVectors(store, io, { quiet: opts.quiet });
  return { indexed, vectors, interrupted: vectors.ok && vectors.result.interrupted };
}

/** What an interrupted run kept, for stderr. */
export function interruptedMessage(command: string, run: IndexRun): string {
  const r = run.indexed;
  const events = `${r.events >= 0 ? "+" : ""}${r.events.toLocaleString("en-US")} events`;
  if (r.interrupted)
    return `${command}: interrupted; kept ${r.filesDone} of ${r.files} files (${events}, ${(r.bytes / 1048576).toFixed(1)} MB read); run it again to go on\n`;
  const v = run.vectors?.ok ? run.vectors.result : null;
  return `${command}: interrupted while embedding; indexed ${r.files} files (${events}), embedded ${(v?.embedded ?? 0).toLocaleString("en-US")} bundles, ${(v?.pending ?? 0).toLocaleString("en-US")} left for the next run\n`;
}
