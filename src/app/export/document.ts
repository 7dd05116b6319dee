/**
 * What an export holds: one session, or a work thread's sessions, with every event whole and in order (a
 * thread's sessions merged by time, each keeping its own order). The renderers (markdown.ts, html.ts) turn it
 * into a document to share; `--format json` prints it as it is.
 */
import { CairnError } from "../../common/errors.ts";
import { IdError, resolveSessionId } from "../../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../../store/types.ts";
import { resolveThread } from "../../threads/list.ts";
import type { Thread } from "../../threads/types.ts";
import type { SessionEvent } from "../../topology/types.ts";

export const EXPORT_FORMATS = ["md", "html", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportDocument {
  kind: "session" | "thread";
  /** The session's or thread's id. */
  id: string;
  title: string;
  /** For a thread: its label and why. */
  thread: Pick<Thread, "thread_id" | "label" | "label_reason" | "shared"> | null;
  sessions: SessionRow[];
  /** Every event, in order; a thread's merged by time. */
  events: SessionEvent[];
  generated_by: string;
}

/** A session id or prefix, or else a thread id or prefix; one that names both is ambiguous. */
export function exportDocument(store: ReadonlyStore, ref: string, generator: string): ExportDocument {
  const session = attempt(() => resolveSessionId(store, ref));
  const thread = attempt(() => resolveThread(store, ref));
  if (session && thread)
    throw new CairnError(
      "ambiguous_id",
      `'${ref}' names session ${session.session_id} and thread ${thread.thread_id}`,
      "give more of the id",
    );
  if (session)
    return {
      kind: "session",
      id: session.session_id,
      title: session.title ?? `${session.provider} session ${session.session_id}`,
      thread: null,
      sessions: [session],
      events: store.sessionEvents(session.session_id),
      generated_by: generator,
    };
  if (thread) {
    const sessions = thread.sessions.map((s) => store.getSession(s.session_id)).filter((s) => s !== undefined);
    const main = sessions.find((s) => s.title);
    return {
      kind: "thread",
      id: thread.thread_id,
      title: `Thread ${thread.thread_id}${main?.title ? `: ${main.title}` : ""}`,
      thread: {
        thread_id: thread.thread_id,
        label: thread.label,
        label_reason: thread.label_reason,
        shared: thread.shared,
      },
      sessions,
      events: mergeByTime(sessions.map((s) => store.sessionEvents(s.session_id))),
      generated_by: generator,
    };
  }
  throw new IdError("not_found", "session", ref, `no session or thread matches '${ref}'`, []);
}

/** Ids that name nothing are `undefined`; an ambiguous id is an error. */
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (error instanceof IdError && error.code === "not_found") return undefined;
    throw error;
  }
}

/**
 * Several sessions' events as one list by time. Each session keeps its own order; an event without a time takes
 * the time of the one before it; ties go to the session listed first.
 */
export function mergeByTime(lists: readonly SessionEvent[][]): SessionEvent[] {
  const lanes = lists.map((events) => {
    let last = Number.NEGATIVE_INFINITY;
    const times = events.map((e) => {
      const t = e.timestamp ? Date.parse(e.timestamp) : Number.NaN;
      if (!Number.isNaN(t)) last = t;
      return last;
    });
    return { events, times, next: 0 };
  });
  const out: SessionEvent[] = [];
  for (;;) {
    let best: (typeof lanes)[number] | null = null;
    for (const lane of lanes)
      if (lane.next < lane.events.length && (best === null || lane.times[lane.next]! < best.times[best.next]!))
        best = lane;
    if (best === null) return out;
    out.push(best.events[best.next++]!);
  }
}
