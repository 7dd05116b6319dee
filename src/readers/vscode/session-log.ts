/**
 * VS Code's newer chat session file, `<session>.jsonl`: a log of changes to the session document, one JSON entry a
 * line. `kind` 0 is the whole document (the first line, and again whenever VS Code compacts the log, which then
 * rewrites the file), 1 sets the value at path `k`, 2 appends `v` to the array at `k` (first cutting it to length
 * `i` when given), 3 deletes the value at `k`. Replaying the lines in order gives the document the older
 * `<session>.json` holds.
 */
import { isObj, type Obj } from "../json.ts";

export interface Replayed {
  doc: Obj | null;
  /** Lines that could not be applied: their line number and why. */
  bad: Array<{ line: number; reason: string }>;
  /** Entry kinds this replay does not know, with the line each was first seen on. */
  unknownKinds: Array<{ kind: string; line: number; entry: Obj }>;
}

type Path = ReadonlyArray<string | number>;

export function replayLog(text: string, firstLine: number): Replayed {
  const out: Replayed = { doc: null, bad: [], unknownKinds: [] };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "") continue;
    const at = firstLine + i;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      // The last line of a log still being written; the file is read again when it changes.
      out.bad.push({ line: at, reason: "invalid JSON in the session log; read again when the file changes" });
      continue;
    }
    if (!isObj(entry)) {
      out.bad.push({ line: at, reason: "a session log entry that is not an object" });
      continue;
    }
    apply(out, entry, at);
  }
  return out;
}

function apply(out: Replayed, entry: Obj, at: number): void {
  const kind = entry["kind"];
  if (kind === 0) {
    // Just parsed from its own line: nothing else holds it.
    out.doc = isObj(entry["v"]) ? entry["v"] : null;
    return;
  }
  if (kind !== 1 && kind !== 2 && kind !== 3) {
    if (!out.unknownKinds.some((u) => u.kind === String(kind)))
      out.unknownKinds.push({ kind: String(kind), line: at, entry });
    return;
  }
  const path = Array.isArray(entry["k"]) ? (entry["k"] as Path) : null;
  if (out.doc === null || path === null) {
    out.bad.push({ line: at, reason: "a session log change before the document it changes" });
    return;
  }
  if (kind === 2) push(out.doc, path, entry["v"], entry["i"]);
  else set(out.doc, path, kind === 1 ? entry["v"] : undefined);
}

/** The container holding the last step of `path`, created on the way when missing. */
function parentOf(doc: Obj, path: Path): Record<string | number, unknown> | null {
  let at: unknown = doc;
  for (const step of path.slice(0, -1)) {
    if (typeof at !== "object" || at === null) return null;
    const box = at as Record<string | number, unknown>;
    if (typeof box[step] !== "object" || box[step] === null) box[step] = {};
    at = box[step];
  }
  return typeof at === "object" && at !== null ? (at as Record<string | number, unknown>) : null;
}

function set(doc: Obj, path: Path, value: unknown): void {
  if (path.length === 0) return;
  const parent = parentOf(doc, path);
  const last = path[path.length - 1]!;
  if (parent === null) return;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

function push(doc: Obj, path: Path, values: unknown, cut: unknown): void {
  const parent = path.length === 0 ? null : parentOf(doc, path);
  if (parent === null) return;
  const last = path[path.length - 1]!;
  if (!Array.isArray(parent[last])) parent[last] = [];
  const list = parent[last] as unknown[];
  if (typeof cut === "number" && cut >= 0) list.length = Math.min(list.length, cut);
  if (Array.isArray(values)) list.push(...values);
}
