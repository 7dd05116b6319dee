/** A thread's merged timeline: the events of all its sessions by time, each row naming its session. */
import { mergeTimelines, type SessionTimelineRow, type TimelineOptions, timelineRows } from "../search/timeline.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { resolveThread } from "./list.ts";
import type { Thread } from "./types.ts";

export interface ThreadTimeline {
  thread: Thread;
  events: SessionTimelineRow[];
}

export function threadTimeline(
  store: ReadonlyStore,
  threadIdOrPrefix: string,
  opts: Pick<TimelineOptions, "all"> = {},
): ThreadTimeline {
  const thread = resolveThread(store, threadIdOrPrefix);
  // Each session's rows are built on their own first, so branch points are found within the session they are in.
  const parts = thread.sessions.map((s) => ({
    session_id: s.session_id,
    provider: s.provider,
    started_at: s.started_at,
    rows: timelineRows(store.sessionEvents(s.session_id), { all: opts.all === true, cwd: s.cwd }),
  }));
  return { thread, events: mergeTimelines(parts) };
}
