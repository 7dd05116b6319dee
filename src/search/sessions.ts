/** What is still failing in a session. */
import type { ReadonlyStore } from "../store/types.ts";
import { checkKey, stillFailing } from "../topology/check-state.ts";

export interface OpenFailure {
  /** The check command, or the error's signature when it is not a check. */
  what: string;
  event_id: string;
  timestamp: string | null;
  failing_tests: string[];
}

/** Checks still failing at the session's end (topology/check-state.ts), with their failing tests, oldest first. */
export function openFailures(store: ReadonlyStore, sessionId: string): OpenFailure[] {
  const checks = store
    .searchEvents({ match: null, types: ["test_result"], sessionPrefix: sessionId, limit: 500 })
    .map((h) => h.event)
    .filter((e) => e.session_id === sessionId);
  return stillFailing(checks, checkKey)
    .map((e) => ({
      what: checkKey(e),
      event_id: e.event_id,
      timestamp: e.timestamp,
      failing_tests: (e.meta["failing_tests"] as string[] | undefined) ?? [],
    }))
    .sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
}
