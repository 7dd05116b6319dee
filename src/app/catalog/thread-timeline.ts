/** `threadTimeline`: a window of a work thread's events, its sessions merged by time (`thread_timeline`, the page). */
import type { SessionTimelineRow } from "../../search/timeline.ts";
import type { Thread } from "../../threads/types.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type ThreadTimelineRequest = Input<"threadTimeline">;

export interface ThreadTimelineWindow {
  thread: Thread;
  total_rows: number;
  /** Rows `start_row` up to (not including) `end_row`. */
  window: { start_row: number; end_row: number };
  rows: SessionTimelineRow[];
  earlier: { start_row: number } | null;
  later: { start_row: number } | null;
}

export const threadTimeline = question({
  name: "threadTimeline",
  summary: "a work thread's events, every session of it merged by time, a window at a time",
  input: "threadTimeline",
  id: "thread",
  async answer(ctx, req: ThreadTimelineRequest): Promise<ThreadTimelineWindow> {
    const threads = await import("../../threads/index.ts");
    const { thread, events } = threads.threadTimeline(ctx.store(), req.thread, { all: req.all === true });
    const total = events.length;
    const limit = req.limit ?? total;
    // Without a start, the thread's last rows: where the work stopped.
    const start = req.start_row === undefined ? Math.max(0, total - limit) : Math.min(req.start_row, total);
    const end = Math.min(total, start + limit);
    return {
      thread,
      total_rows: total,
      window: { start_row: start, end_row: end },
      rows: events.slice(start, end),
      earlier: start > 0 ? { start_row: Math.max(0, start - limit) } : null,
      later: end < total ? { start_row: end } : null,
    };
  },
});
