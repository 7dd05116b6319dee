/**
 * Mistral Vibe 3's session store, `logs/session/unified/<session id>/`: `CURRENT` (one JSON line naming the
 * generation in force and the store format) → `generations/<generation>/manifest.json` → the content-addressed
 * `chunks/<sha256>.json` (JSON arrays) that hold, in the manifest's order, the session's projection (what its screen
 * shows: messages, tool effects, checkpoints) and its model context (rewritten by a compaction). Superseded chunks
 * and generations stay beside them until swept, so only the manifest says which are the session's. `meta.json`
 * (main sessions only) holds the folder, title and model; the generation's `projection-state.json` names a
 * subagent's parent. The recovery journal (`journal/*.jsonl`) holds only the records since the last snapshot and is
 * discarded as snapshots are made: not read.
 */
import { dirname, join } from "node:path";
import { arr, isObj, type Obj, obj, str } from "../json.ts";

/** What the reader takes from the store's files, gathered before the pointer line is parsed. */
export interface VibeStore {
  /** The projection's entries, in order. */
  entries: Obj[];
  /** The summary the newest compaction left in the model context, when there is one. */
  summary: string | null;
  meta: Obj;
  /** The projection's own view of the session (`parentSessionId`, `title`, `createdAt`). */
  session: Obj;
  /** Files the manifest names that could not be read. */
  missing: string[];
}

const parse = (text: string | undefined): Obj | null => {
  if (text === undefined) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
};

const generationDir = (dir: string, current: Obj | null) => {
  const generation = str(current?.["generation"]);
  return generation && /^\d+$/.test(generation) ? join(dir, "generations", generation) : null;
};

/** The chunk files a manifest lists for one of its documents (`projection_state`, `checkpoint`). */
function chunksOf(dir: string, manifest: Obj | null, key: string): string[] {
  const names = arr(obj(manifest?.[key])?.["chunks"]) ?? [];
  return names
    .filter((c): c is string => typeof c === "string" && /^[0-9a-f]{64}$/.test(c))
    .map((c) => join(dir, "chunks", `${c}.json`));
}

/** The files to read for the store whose pointer is at `path`, given those read so far (`Reader.context`). */
export function storeFiles(path: string, read: Readonly<Record<string, string>>): string[] {
  const dir = dirname(path);
  const files = [path, join(dir, "meta.json")];
  const generation = generationDir(dir, parse(read[path]));
  if (generation === null) return files;
  const manifestPath = join(generation, "manifest.json");
  files.push(manifestPath, join(generation, "projection-state.json"), join(generation, "checkpoint.json"));
  const manifest = parse(read[manifestPath]);
  return [...files, ...chunksOf(dir, manifest, "projection_state"), ...chunksOf(dir, manifest, "checkpoint")];
}

/** The items of a document's transcript: its chunks in order, or the list kept inline when it was not split. */
function items(files: string[], context: Readonly<Record<string, string>>, inline: unknown, missing: string[]) {
  if (files.length === 0) return (arr(inline) ?? []).filter(isObj);
  return files.flatMap((f) => {
    const text = context[f];
    if (text === undefined) {
      missing.push(f);
      return [];
    }
    try {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) ? list.filter(isObj) : [];
    } catch {
      missing.push(f);
      return [];
    }
  });
}

const SUMMARY = /<compaction_summary>\n?([\s\S]*?)\n?<\/compaction_summary>/;

/** The newest compaction summary among the model context's messages (injected as a user message). */
function summaryOf(messages: readonly Obj[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = arr(obj(messages[i]!["message"])?.["content"]) ?? [];
    for (const block of content.filter(isObj)) {
      const hit = SUMMARY.exec(str(block["text"]) ?? "");
      if (hit) return hit[1]!.trim();
    }
  }
  return null;
}

/** Everything the store's files say, from their texts by path. */
export function loadStore(path: string, context: Readonly<Record<string, string>>): VibeStore {
  const dir = dirname(path);
  const generation = generationDir(dir, parse(context[path]));
  const manifest = generation ? parse(context[join(generation, "manifest.json")]) : null;
  const projection = generation ? parse(context[join(generation, "projection-state.json")]) : null;
  const checkpoint = generation ? parse(context[join(generation, "checkpoint.json")]) : null;
  const snapshot = obj(projection?.["snapshot"]) ?? {};
  const missing: string[] = [];
  if (generation && !manifest) missing.push(join(generation, "manifest.json"));
  const entries = items(
    chunksOf(dir, manifest, "projection_state"),
    context,
    obj(snapshot["history"])?.["entries"],
    missing,
  );
  const messages = items(
    chunksOf(dir, manifest, "checkpoint"),
    context,
    obj(checkpoint?.["context"])?.["messages"],
    missing,
  );
  return {
    entries,
    summary: summaryOf(messages),
    meta: parse(context[join(dir, "meta.json")]) ?? {},
    session: obj(snapshot["session"]) ?? {},
    missing,
  };
}
