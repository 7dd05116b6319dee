/**
 * The one shaping step every answer passes before a surface sees it. Its order is the point:
 *
 * 1. ids: the short form cairn prints of a session id is the one that resolves to it (`shortSessionId`);
 * 2. secrets: the answer was read through the redacting view (`redacting-view.ts`), so its texts were redacted
 *    whole, before anything below cut them; what did not come from the index (a file `inspect` reads, a model's
 *    words) is scanned here;
 * 3. highlight, clip and label: the handlers do these on the text they read, already redacted;
 * 4. for a terminal, the transcript's control characters are made inert (`terminal-text.ts`).
 */
import { redactDeep } from "../../secrets/redact.ts";
import type { ReadonlyStore } from "../../store/types.ts";
import { withShortIds } from "./short-ids.ts";
import { terminalSafe } from "./terminal-text.ts";

/** Where an answer goes: a terminal (text a person or a model reads there) or data (JSON, the web page). */
export const EXITS = ["terminal", "data"] as const;
export type Exit = (typeof EXITS)[number];

export interface ShapeOptions {
  exit: Exit;
  /** The answer holds text that was not read through the redacting view: scan every string of it. */
  scan?: boolean;
  /** A person asked for the raw values: nothing is redacted. */
  reveal?: boolean;
  /** The index the session ids of the answer are shortened against (`short-ids.ts`); none for text alone. */
  ids?: () => Pick<ReadonlyStore, "getSession" | "listSessions">;
}

export function shapeAnswer<T>(answer: T, opts: ShapeOptions): T {
  const named = opts.ids && typeof answer === "object" && answer !== null ? withShortIds(answer, opts.ids) : answer;
  const redacted = opts.scan && !opts.reveal ? redactDeep(named) : named;
  return opts.exit === "terminal" ? terminalSafe(redacted) : redacted;
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
