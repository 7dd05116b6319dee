import { claudeReader } from "./claude-code.ts";
import { cline } from "./cline/index.ts";
import { codexReader } from "./codex.ts";
import { copilot } from "./copilot/index.ts";
import { droid } from "./droid/index.ts";
import { gemini } from "./gemini/index.ts";
import { kilo, opencode } from "./opencode/index.ts";
import { piReader } from "./pi.ts";
import { qwen, qwenLegacy } from "./qwen/index.ts";
import type { Reader } from "./types.ts";
import type { Provider } from "./vocabulary.ts";

/** Order matters where first lines look alike: Gemini's header names a `sessionId` as Claude's lines do. */
export const READERS: readonly Reader<unknown>[] = [
  piReader,
  codexReader,
  gemini,
  qwen,
  qwenLegacy,
  copilot,
  droid,
  cline,
  claudeReader,
  opencode,
  kilo,
] as Reader<unknown>[];

/** Readers that only their folder tells apart from another format's (a fork writing its parent's files). */
const BY_FOLDER: readonly Reader<unknown>[] = [qwenLegacy] as Reader<unknown>[];

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
