import { AGENTS } from "./agents.ts";
import type { Reader } from "./types.ts";
import type { Provider } from "./vocabulary.ts";

/** Every format, in the order detection tries them: the registry's, with the general formats last. */
export const READERS: readonly Reader<unknown>[] = [
  ...AGENTS.flatMap((a) => a.readers).filter((r) => !r.general),
  ...AGENTS.flatMap((a) => a.readers).filter((r) => r.general),
];

/** Readers that only their folder tells apart from another format's (a fork writing its parent's files). */
const BY_FOLDER: readonly Reader<unknown>[] = READERS.filter((r) => r.byFolder);

/**
 * Picks the reader for a file. The content of the first lines decides (so copied or renamed transcripts are read
 * correctly); the path is the tie-breaker for files whose first lines say nothing (empty, truncated, garbage).
 */
export function detectReader(path: string, headLines: readonly string[]): Reader<unknown> | null {
  for (const reader of BY_FOLDER) if (reader.detect(path, "")) return reader;
  // A pretty-printed JSON document (an older Gemini chat) says what it is over several lines, not in one.
  const firstLine = headLines.find((l) => l.trim() !== "");
  if (firstLine?.trim() === "{") {
    const head = headLines.slice(0, 8).join("\n");
    for (const reader of READERS) if (reader.detect("", head)) return reader;
  }
  for (const line of headLines.slice(0, 8)) {
    if (line.trim() === "") continue;
    for (const reader of READERS) if (reader.detect("", line)) return reader;
  }
  for (const reader of READERS) if (reader.detect(path, "")) return reader;
  return null;
}

/** The reader a saved state names: by id when the provider has several formats, else by provider. */
export function readerFor(provider: Provider, id?: string): Reader<unknown> {
  const reader = id ? READERS.find((r) => r.id === id) : READERS.find((r) => r.provider === provider && !r.id);
  if (!reader) throw new Error(`no reader for provider '${provider}'`);
  return reader;
}

/**
 * The reader of an SQLite database, by the tables it has: the reader that names the most of them wins, so a fork
 * that adds tables (Kilo Code's) is told apart from the format it forked.
 */
export function detectDatabaseReader(tables: readonly string[]): Reader<unknown> | null {
  const have = new Set(tables);
  let best: Reader<unknown> | null = null;
  for (const reader of READERS) {
    const need = reader.database?.tables;
    if (!need?.every((t) => have.has(t))) continue;
    if (!best || need.length > (best.database?.tables.length ?? 0)) best = reader;
  }
  return best;
}
