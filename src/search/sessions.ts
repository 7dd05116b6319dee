/** Finding sessions by id or prefix, and what is still failing in them. */
import type { SessionRow, Store } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";

/** A session by exact id or by a prefix that names exactly one session. */
export function resolveSession(store: Store, idOrPrefix: string): SessionRow {
  const exact = store.getSession(idOrPrefix);
  if (exact) return exact;
  const matches = store.listSessions({ idPrefix: idOrPrefix, limit: 6 });
  if (matches.length === 0) throw new Error(`no session matches '${idOrPrefix}'; 'cairn sessions' lists them`);
  if (matches.length > 1) {
    throw new Error(
      `'${idOrPrefix}' matches ${matches.length > 5 ? "more than 5" : matches.length} sessions (${matches
        .slice(0, 5)
        .map((m) => m.session_id)
        .join(", ")}); give more of the id`,
    );
  }
  return matches[0]!;
}

/** An event by exact id or by a prefix that names exactly one; a cited `[e:ID]` is accepted as it is written. */
export function resolveEvent(store: Store, idOrPrefix: string): SessionEvent {
  const id = idOrPrefix
    .trim()
    .replace(/^\[?e:/, "")
    .replace(/\]$/, "");
  const exact = store.getEvent(id);
  if (exact) return exact;
  const found = store.findEvents(id, 6);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new Error(`no event ${idOrPrefix} in the index`);
  throw new Error(
    `'${idOrPrefix}' matches ${found.length > 5 ? "more than 5" : found.length} events; give more of the id`,
  );
}

export interface OpenFailure {
  /** The check command, or the error's signature when it is not a check. */
  what: string;
  event_id: string;
  timestamp: string | null;
  failing_tests: string[];
}

/**
 * Checks whose last run in the session failed (with their failing tests), and the latest error if nothing
 * succeeded after it. The resume engine's ledger is the full account; this is the overview's one-liner.
 */
export function openFailures(store: Store, sessionId: string): OpenFailure[] {
  const checks = store.searchEvents({ match: null, types: ["test_result"], sessionPrefix: sessionId, limit: 500 });
  const latest = new Map<string, (typeof checks)[number]["event"]>();
  for (const { event } of checks) {
    if (event.session_id !== sessionId) continue;
    const key = event.command ?? event.text;
    const prev = latest.get(key);
    if (!prev || prev.ordinal < event.ordinal) latest.set(key, event);
  }
  const out: OpenFailure[] = [];
  for (const [cmd, e] of latest) {
    if (e.status === "fail")
      out.push({
        what: cmd,
        event_id: e.event_id,
        timestamp: e.timestamp,
        failing_tests: (e.meta["failing_tests"] as string[] | undefined) ?? [],
      });
  }
  return out.sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
}
