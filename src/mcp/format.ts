/** Small text forms shared by the tools' readable output. */
export { cite } from "../topology/citation.ts";

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

/** Session fields a tool shows with what it returns. */
export function sessionSummary(s: {
  session_id: string;
  provider: string;
  kind: string;
  project: string | null;
  cwd: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  event_count: number;
}) {
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
