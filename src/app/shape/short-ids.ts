/**
 * Short session ids that resolve. A session id printed as its first 8 characters did not always name it: agents
 * that make time-ordered ids (UUIDv7: Codex, pi) give two sessions started the same minute the same 8 leading
 * digits, and a Claude subagent's id begins with its parent's. The shaping step puts beside every `session_id` of
 * an answer the fewest leading characters that name that session by the resolution rule (`store/resolve.ts`), and
 * every surface prints that: what a hit prints, `cairn timeline`, `get_event` and the page's URLs accept.
 */
import { shortSessionId } from "../../store/resolve.ts";
import type { ReadonlyStore } from "../../store/types.ts";

/** The id fields that get a short form, and the name of the field that holds it. */
const SHORT_OF: Record<string, string> = {
  session_id: "session_short",
  parent_session_id: "parent_session_short",
};

/** The short forms that fields ending in these names get, by the id field they sit beside. */
export interface ShortIds {
  session_short?: string;
  parent_session_short?: string | null;
}

type Sessions = Pick<ReadonlyStore, "getSession" | "listSessions">;

/**
 * `answer` with a short form beside each session id in it (the answer itself is not changed). The index is opened
 * at the first id; an answer made without one (`inspect` reads files) keeps its ids whole.
 */
export function withShortIds<T>(answer: T, index: () => Sessions): T {
  const known = new Map<string, string>();
  let store: Sessions | null | undefined;
  const short = (id: string) => {
    let s = known.get(id);
    if (s === undefined) {
      if (store === undefined) {
        try {
          store = index();
        } catch {
          store = null;
        }
      }
      s = store && store.getSession(id) ? shortSessionId(store, id) : id;
      known.set(id, s);
    }
    return s;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, walk(v)]));
    if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = walk(v);
      const field = SHORT_OF[k];
      if (field && !(field in value) && (typeof v === "string" || v === null))
        out[field] = v === null ? null : short(v);
    }
    return out;
  };
  return walk(answer) as T;
}
