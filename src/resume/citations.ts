/**
 * Citations in a brief: `[e:<event id>]` or `[e:<id>,<id>]` (topology/citation.ts writes and reads them) after
 * the line or excerpt they back. Ids are the store's event ids, so `cairn show <id>` resolves each one.
 */
import type { ReadonlyStore } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";

export { cite, citedIds } from "../topology/citation.ts";

/**
 * The text of a line cites its newest source; the JSON output lists every source. An id costs about eight tokens,
 * and a ledger has dozens of lines: one id each is what a tight budget can carry.
 */
export const MAX_INLINE_CITES = 1;

/** The ids a line shows inline: its newest sources (ids are given oldest first). */
export function inlineCites(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  return unique.slice(Math.max(0, unique.length - MAX_INLINE_CITES));
}

export interface ResolvedCitation {
  event_id: string;
  session_id: string;
  ordinal: number;
  event_type: SessionEvent["event_type"];
  source_file: string;
  source_line: number;
}

/** Looks every id up in the store; ids that do not resolve are returned apart (they would be a bug). */
export function resolveCitations(
  store: Pick<ReadonlyStore, "getEvent">,
  ids: Iterable<string>,
): { resolved: ResolvedCitation[]; unresolved: string[] } {
  const resolved: ResolvedCitation[] = [];
  const unresolved: string[] = [];
  for (const id of ids) {
    const e = store.getEvent(id);
    if (!e) unresolved.push(id);
    else
      resolved.push({
        event_id: e.event_id,
        session_id: e.session_id,
        ordinal: e.ordinal,
        event_type: e.event_type,
        source_file: e.source_file,
        source_line: e.source_line,
      });
  }
  resolved.sort((a, b) =>
    a.session_id === b.session_id ? a.ordinal - b.ordinal : a.session_id < b.session_id ? -1 : 1,
  );
  return { resolved, unresolved };
}
