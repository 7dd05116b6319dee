/**
 * The one shaping step every answer passes before a surface sees it. Its order is the point:
 *
 * 1. ids: beside each session id, the short form cairn prints, the one that resolves to it (`short-ids.ts`);
 * 2. secrets: the answer was read through the redacting view (`redacting-view.ts`), so its texts were redacted
 *    whole, before anything below cut them; what did not come from the index (a file `inspect` reads, a model's
 *    words) is scanned here;
 * 3. highlight, clip and label: the handlers do these on the text they read, already redacted;
 * 4. for a terminal, the transcript's control characters are made inert (`terminal-text.ts`).
 *
 * One walk over the answer does what this step adds (ids, the scan, the terminal's text), copying as it goes: the
 * handler's objects are never changed.
 */
import { redactText } from "../../secrets/redact.ts";
import { SHORT_OF, type ShortIds } from "./short-ids.ts";
import { terminalText } from "./terminal-text.ts";

/** Where an answer goes: a terminal (text a person or a model reads there) or data (JSON, the web page). */
export const EXITS = ["terminal", "data"] as const;
export type Exit = (typeof EXITS)[number];

export interface ShapeOptions {
  exit: Exit;
  /** The answer holds text that was not read through the redacting view: scan every string of it. */
  scan?: boolean;
  /** A person asked for the raw values: nothing is redacted. */
  reveal?: boolean;
  /** Where the session ids of the answer are shortened (`short-ids.ts`); none for text alone. */
  ids?: ShortIds;
}

export function shapeAnswer<T>(answer: T, opts: ShapeOptions): T {
  const scan = opts.scan === true && opts.reveal !== true;
  const terminal = opts.exit === "terminal";
  const short = opts.ids ? opts.ids.forAnswer() : null;
  // Answers repeat their strings (a model, an agent, a day in every group): each is scanned once.
  const done = new Map<string, string>();
  const text = (s: string) => {
    let out = done.get(s);
    if (out === undefined) {
      const seen = scan ? redactText(s) : s;
      out = terminal ? terminalText(seen) : seen;
      done.set(s, out);
    }
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, walk(v)]));
    if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = walk(v);
      const field = SHORT_OF[k];
      if (short && field && !(field in value) && (typeof v === "string" || v === null))
        out[field] = v === null ? null : short(v);
    }
    return out;
  };
  return walk(answer) as T;
}

/** A promise's answer shaped when it comes, a plain answer at once. */
export function shapeResult<T>(result: T, opts: ShapeOptions): T {
  if (result instanceof Promise) return result.then((a: unknown) => shapeAnswer(a, opts)) as T;
  return shapeAnswer(result, opts);
}
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date | Buffer | Float32Array;

/** The short forms the shaping step puts beside the session ids of an object (`short-ids.ts`). */
type ShortOf<T> = (T extends { session_id: string } ? { session_short: string } : unknown) &
  (T extends { parent_session_id: string | null } ? { parent_session_short: string | null } : unknown);

/** An answer as a surface receives it: the shape its question declares, with the short ids the step added. */
export type Shaped<T> = T extends Leaf
  ? T
  : T extends ReadonlyArray<infer U>
    ? Shaped<U>[]
    : T extends Map<infer K, infer V>
      ? Map<K, Shaped<V>>
      : T extends (...args: never[]) => unknown
        ? T
        : { [K in keyof T]: Shaped<T[K]> } & ShortOf<T>;

/** A question's method as surfaces call it: the same arguments, its answer shaped. */
export type ShapedMethod<F> = F extends (...args: infer A) => infer R
  ? (...args: A) => R extends Promise<infer V> ? Promise<Shaped<V>> : Shaped<R>
  : F;
