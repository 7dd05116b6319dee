/** Small text forms shared by the tools' readable output. */

/** An event id as briefs cite it; `get_event` resolves it. */
export function cite(eventId: string): string {
  return `[e:${eventId}]`;
}

/** `2025-11-21T00:02:21.477Z` → `2025-11-21 00:02` (UTC, as stored); empty for no time. */
export function shortTime(ts: string | null | undefined): string {
  if (!ts) return "";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(ts);
  return m ? `${m[1]} ${m[2]}` : ts;
}

/** `a · b · c`, skipping empty parts. */
export function dotted(...parts: Array<string | null | undefined | false>): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "").join(" · ");
}

export const ID_NOTE =
  "[e:ID] is an event id: get_event shows the event whole with its edges; session_timeline with around=ID shows what surrounds it.";
