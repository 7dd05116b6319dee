/**
 * A tool call's meta as the SQLite store keeps it. The call's typed input (`meta.input`) repeats what its text
 * shows (an edit's old and new text, a written file's content): on pi transcripts a third of all meta bytes. A
 * string of the meta found in the text is stored as where it stands there, and put back on read, so every reader
 * gets the meta it had. Only tool calls are packed: they are never read with a shortened text except through
 * `getEventHead`, which reads the whole text for a packed row (sqlite/read.ts).
 *
 * The packed form is a JSON array, `[meta with 0 in each moved string's place, [[at, length, ...path], ...]]`; a
 * stored meta is otherwise always a JSON object, so the first character tells the two apart.
 */

/** Shorter strings cost about as much to point at as to keep. */
const MIN_PACKED = 32;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Ref = [at: number, length: number, ...path: Array<string | number>];

/** `String.prototype.isWellFormed` (Node 20), which the ES2023 library types do not list. */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** The stored form of a tool call's meta JSON, or null when nothing in it repeats the text. */
export function packMeta(text: string, meta: Record<string, unknown>): string | null {
  if (text.length < MIN_PACKED) return null;
  const refs: Ref[] = [];
  const walk = (value: Json, path: Array<string | number>): Json => {
    if (typeof value === "string") {
      // A lone surrogate does not survive the text's trip through UTF-8; the JSON keeps it escaped.
      if (value.length < MIN_PACKED || !wellFormed(value)) return value;
      const at = text.indexOf(value);
      if (at < 0) return value;
      refs.push([at, value.length, ...path]);
      return 0;
    }
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    // Without a prototype, a "__proto__" key is copied as a key.
    const out = Object.create(null) as { [key: string]: Json };
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, [...path, k]);
    return out;
  };
  const copy = walk(meta as Json, []);
  return refs.length === 0 ? null : JSON.stringify([copy, refs]);
}

/** Whether a stored meta is packed (`packMeta`). */
export function isPacked(stored: string): boolean {
  return stored.charCodeAt(0) === 91; // "["
}

/** The meta of a stored row: its JSON, with the strings of a packed one taken back from the event's whole text. */
export function unpackMeta(stored: string, text: string): Record<string, unknown> {
  const parsed = JSON.parse(stored) as unknown;
  if (!Array.isArray(parsed)) return parsed as Record<string, unknown>;
  const [meta, refs] = parsed as [Record<string, unknown>, Ref[]];
  for (const [at, length, ...path] of refs) {
    let node = meta as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[path.at(-1)!] = text.slice(at, at + length);
  }
  return meta;
}

/** A stored meta as the JSON the other stores keep (a purge rewrites it, a migration reads it). */
export function unpackedJson(stored: string, text: string): string {
  return isPacked(stored) ? JSON.stringify(unpackMeta(stored, text)) : stored;
}
