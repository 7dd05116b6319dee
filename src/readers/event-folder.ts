/**
 * Transcripts kept as one JSON file per event in a folder (`Reader.eventFolder`): which folder stands behind a
 * transcript's path, and the order its files are its lines in. Names only: the indexer lists and reads the files.
 */
import { READERS } from "./detect.ts";

const FOLDER_READERS = READERS.filter((r) => r.eventFolder !== undefined);

/** The folder of per-event files behind the transcript at `path`, when a format keeps its transcripts so. */
export function eventFolderOf(path: string): string | null {
  for (const reader of FOLDER_READERS) {
    const folder = reader.eventFolder!(path);
    if (folder !== null) return folder;
  }
  return null;
}

/**
 * The event files among a folder's names, in the order they are the transcript's lines: by name, with a run of
 * digits compared as a number, so `event-100000` follows `event-99999` once the numbers outgrow their padding.
 */
export function eventFiles(names: readonly string[]): string[] {
  return names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort(byNumberedName);
}

function byNumberedName(a: string, b: string): number {
  const na = /\d+/.exec(a);
  const nb = /\d+/.exec(b);
  if (na && nb && na.index === nb.index && a.slice(0, na.index) === b.slice(0, nb.index)) {
    const d = Number(na[0]) - Number(nb[0]);
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
