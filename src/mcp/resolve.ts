/** Events and sessions named by id or by a prefix an agent copied, with errors that say what to do instead. */

import { resolveEvent as resolveEventIn } from "../search/sessions.ts";
import type { SessionRow, Store } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";

/** An event by id or unique prefix; when none matches, the agent is pointed at search. */
export function resolveEvent(store: Store, id: string): SessionEvent {
  try {
    return resolveEventIn(store, id);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      message.startsWith("no event") ? `${message}; search_history finds events by what they say` : message,
    );
  }
}

/** Session fields a tool shows with what it returns. */
export function sessionSummary(s: SessionRow) {
  return {
    session_id: s.session_id,
    provider: s.provider,
    kind: s.kind,
    project: s.project,
    cwd: s.cwd,
    title: s.title === null ? null : s.title.slice(0, 200),
    started_at: s.started_at,
    updated_at: s.updated_at,
    events: s.event_count,
  };
}
