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
export const SHORT_OF: Readonly<Record<string, string>> = {
  session_id: "session_short",
  parent_session_id: "parent_session_short",
};

export type Sessions = Pick<ReadonlyStore, "getSession" | "listSessions" | "sessionCount">;

/** Where an answer's session ids are shortened: the index, and the short forms found so far. */
export interface ShortIds {
  /** A shortener for one answer. */
  forAnswer(): (id: string) => string;
}

/**
 * Short forms kept while the set of sessions stays the same (its count, looked at once per answer): a new session
 * can make another's short form longer. The index is opened at the first id; an answer made without one (`inspect`
 * reads files) keeps its ids whole, and so does an id the index does not hold.
 */
export function createShortIds(index: () => Sessions): ShortIds {
  const known = new Map<string, string>();
  let counted = -1;
  return {
    forAnswer() {
      let store: Sessions | null | undefined;
      let asked = 0;
      let inMemory: Sessions | null = null;
      return (id) => {
        if (store === undefined) {
          try {
            store = index();
            const count = store.sessionCount();
            if (count !== counted) known.clear();
            counted = count;
          } catch {
            store = null;
          }
        }
        if (store === null) return id;
        let s = known.get(id);
        if (s === undefined) {
          // An answer naming many sessions of a small index reads them once instead of once per id.
          if (++asked === MANY && counted <= IN_MEMORY_MAX) inMemory = sessionsInMemory(store);
          s = shortSessionId(inMemory ?? store, id);
          known.set(id, s);
        }
        return s;
      };
    },
  };
}

/** Ids shortened in one answer before the sessions are read at once (when there are at most IN_MEMORY_MAX). */
const MANY = 24;
const IN_MEMORY_MAX = 5_000;

/**
 * The index's sessions read once, answering the two reads shortening makes: a session by id, and the sessions
 * whose ids start with a prefix (all of them: the rule looks at their ids and parents, not their order).
 */
function sessionsInMemory(store: Sessions): Sessions {
  const rows = store.listSessions({ limit: IN_MEMORY_MAX + 1 });
  const byId = new Map(rows.map((r) => [r.session_id, r]));
  const sorted = [...rows].sort((a, b) => (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
  return {
    getSession: (id) => byId.get(id),
    sessionCount: () => rows.length,
    listSessions(filter) {
      const prefix = filter.idPrefix ?? "";
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]!.session_id < prefix) lo = mid + 1;
        else hi = mid;
      }
      const out = [];
      for (let i = lo; i < sorted.length && sorted[i]!.session_id.startsWith(prefix); i++) out.push(sorted[i]!);
      return out.slice(0, filter.limit ?? out.length);
    },
  };
}
