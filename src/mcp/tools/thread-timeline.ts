/** `thread_timeline`: the events of all of a thread's sessions by time, paged by row. */
import type { z } from "zod";
import { fitRange, jsonSize, listBudget } from "../bounded-output.ts";
import { dotted, ID_NOTE, shortTime } from "../format.ts";
import { renderRow, rowData } from "../timeline-rows.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { inputSchema } from "./thread-timeline-schema.ts";

const DESCRIPTION = `Show a work thread's events (from list_threads) as one timeline: the rows of all its sessions merged by time, each naming its agent and session, with errors, tests, decisions and resume points marked. Rows are paged: without start_row it shows the thread's end (where the work stopped); the answer says which start_row gives the rows before and after.`;

type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const threadTimelineTool: CairnTool<Args> = {
  name: "thread_timeline",
  title: "Thread timeline",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    async ({ thread, start_row, limit, all }) => {
      const w = await ctx.cairn.threadTimeline({
        thread,
        all,
        limit,
        ...(start_row !== undefined ? { start_row } : {}),
      });
      const t = w.thread;
      const total = w.total_rows;
      const tail = start_row === undefined;
      const first = w.window.start_row;
      const rows = w.rows.map(rowData);
      const texts = rows.map(renderRow);
      const sessions = t.sessions.map((s) => ({ session_id: s.session_id, provider: s.provider, project: s.project }));
      const heading = [
        `thread ${dotted(t.thread_id, t.label, `${shortTime(t.started_at)} → ${shortTime(t.updated_at)}`, `${t.sessions.length} sessions`, t.providers.join(", "))}`,
        ...t.sessions.map((s) => `  session ${dotted(s.session_id, s.provider, s.project, shortTime(s.started_at))}`),
      ].join("\n");
      const fit = fitRange(
        rows.map((r, i) => ({ text: texts[i]!.length + 1, json: jsonSize(r) + 1 })),
        tail ? rows.length - 1 : 0,
        listBudget({ text: heading.length, json: jsonSize(sessions) }),
      );
      const start = first + fit.start;
      const end = first + fit.end;
      const earlier = start > 0 ? { start_row: Math.max(0, start - limit) } : null;
      const later = end < total ? { start_row: end } : null;
      const truncated =
        fit.end - fit.start < rows.length
          ? `showing ${fit.end - fit.start} of ${rows.length} rows to stay within the size bound; page with start_row`
          : null;
      const lines = [
        heading,
        `rows ${start}–${end - 1} of ${total} (each row: agent, session, @position in its session). ${ID_NOTE}`,
        "",
        ...(rows.length === 0 ? ["(no rows in this window)"] : texts.slice(fit.start, fit.end)),
        "",
      ];
      if (truncated) lines.push(`… ${truncated}`);
      if (earlier) lines.push(`earlier: thread_timeline thread=${t.thread_id} start_row=${earlier.start_row}`);
      if (later) lines.push(`later: thread_timeline thread=${t.thread_id} start_row=${later.start_row}`);
      return {
        text: lines.join("\n").trimEnd(),
        structured: {
          thread_id: t.thread_id,
          label: t.label,
          sessions,
          total_rows: total,
          window: { start_row: start, end_row: end },
          rows: rows.slice(fit.start, fit.end),
          earlier,
          later,
          truncated,
        },
      };
    },
};
