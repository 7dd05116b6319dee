/**
 * What a thread shares, in words, for every surface: "shares the failing test `add.test.ts` and the file
 * `src/db.ts`". Never empty: a thread joined by a fork alone says so, and a session that joined nothing says that.
 */
import { baseName } from "./names.ts";
import type { SharedEntity } from "./types.ts";

/** At most this many shared facts are named; the rest are counted. */
export const NAMED_SHARED = 3;
const MAX_DISPLAY = 60;

/** `units`: the thread's sessions not folded into another. Units join without a shared key only as forks. */
export function describeShared(shared: readonly SharedEntity[], units: number): string {
  if (shared.length === 0) {
    return units <= 1
      ? "joined no other session: no two rare files, errors or branches shared"
      : "a forked session and the session it continues";
  }
  const named = shared.slice(0, NAMED_SHARED).map(noun);
  // "the files `a.ts` and `b.ts`": one noun per kind, in the order the kinds first appear.
  const byNoun = new Map<string, string[]>();
  for (const { noun, name } of named) byNoun.set(noun, [...(byNoun.get(noun) ?? []), `\`${clip(name)}\``]);
  const phrases = [...byNoun].map(([n, names]) => `the ${names.length > 1 ? plural(n) : n} ${joinWords(names)}`);
  const rest = shared.length - named.length;
  return `shares ${joinWords(rest > 0 ? [...phrases, `${rest} more`] : phrases)}`;
}

function noun(e: SharedEntity): { noun: string; name: string } {
  if (e.kind !== "error_signature") return { noun: e.kind, name: e.display };
  const test = failingTest(e.display);
  return test ? { noun: "failing test", name: test } : { noun: "error", name: e.display };
}

/** The test a runner's failure line names (`FAIL src/add.test.ts > adds` → `add.test.ts > adds`), if it is one. */
function failingTest(signature: string): string | null {
  const m = /^(?:FAIL|FAILED|✗|×|not ok \d*)\s+(\S.*)$/.exec(signature.trim());
  if (!m) return null;
  const [first, ...rest] = m[1]!.split(" ");
  return [first!.includes("/") ? baseName(first!) : first!, ...rest].join(" ");
}

function plural(noun: string): string {
  return noun.endsWith("ch") ? `${noun}es` : `${noun}s`;
}

function clip(s: string): string {
  const line = (s.split("\n")[0] ?? "").trim();
  return line.length > MAX_DISPLAY ? `${line.slice(0, MAX_DISPLAY - 1)}…` : line;
}

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  // "the files `a` and `b`, and the error `c`": a comma keeps the inner "and" from reading as the outer one.
  const comma = items.some((i) => i.includes(" and ")) ? "," : "";
  return `${items.slice(0, -1).join(", ")}${comma} and ${items.at(-1)}`;
}
