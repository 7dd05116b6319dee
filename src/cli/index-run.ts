/**
 * How the CLI reports an index run that Ctrl-C stopped (`cairn index`, `cairn embed`, and `cairn` before its
 * overview): the work itself is the application layer's, which commits what was done so the next run goes on.
 */
import type { IndexAnswer } from "../app/indexing.ts";
import { plural, pluralLarge } from "./format.ts";

/** The exit code of a command stopped by Ctrl-C, as shells report a process ended by SIGINT. */
export const INTERRUPTED = 130;

/** What an interrupted run kept, for stderr. */
export function interruptedMessage(command: string, run: IndexAnswer): string {
  const r = run.indexed!;
  const events = `${r.events >= 0 ? "+" : ""}${pluralLarge(r.events, "event")}`;
  if (r.interrupted)
    return `${command}: interrupted; kept ${r.filesDone} of ${plural(r.files, "file")} (${events}, ${(r.bytes / 1048576).toFixed(1)} MB read); run it again to go on\n`;
  if (run.compacted?.interrupted)
    return `${command}: interrupted while converting an older index to the compact layout; indexed ${plural(r.files, "file")} (${events}), converted ${pluralLarge(run.compacted.rows, "row")} so far; run it again to go on\n`;
  const v = run.vectors?.ok ? run.vectors.result : null;
  return `${command}: interrupted while embedding; indexed ${plural(r.files, "file")} (${events}), embedded ${pluralLarge(v?.embedded ?? 0, "bundle")}, ${(v?.pending ?? 0).toLocaleString("en-US")} left for the next run\n`;
}
