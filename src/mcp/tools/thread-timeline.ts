/** `thread_timeline`: the events of all of a thread's sessions by time, paged by row. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fitRange, jsonSize, listBudget } from "../bounded-output.ts";
import type { McpContext } from "../context.ts";
import { dotted, ID_NOTE, shortTime } from "../format.ts";
import { renderRow, rowData, timelineRowSchema } from "../timeline-rows.ts";
import { guarded, READ_ONLY } from "../tool-boundary.ts";
import { TIMELINE_ROWS_MAX } from "./session-timeline.ts";

const DESCRIPTION = `Show a work thread's events (from list_threads) as one timeline: the rows of all its sessions merged by time, each naming its agent and session, with errors, tests, decisions and resume points marked. Rows are paged: without start_row it shows the thread's end (where the work stopped); the answer says which start_row gives the rows before and after.`;

const inputSchema = {
  thread: z.string().min(3).max(100).describe("thread id or a unique prefix of one (list_threads names them)"),
  start_row: z.number().int().min(0).optional().describe("index of the first row to show (0 = the thread's start)"),
  max_rows: z
    .number()
    .int()
    .min(1)
    .max(TIMELINE_ROWS_MAX)
    .default(40)
    .describe(`rows at most (1–${TIMELINE_ROWS_MAX}); fewer if they would exceed the size bound`),
  all: z.boolean().default(false).describe("also list file actions and commands as rows of their own"),
};

const outputSchema = {
  thread_id: z.string(),
  label: z.string(),
  sessions: z.array(z.object({ session_id: z.string(), provider: z.string(), project: z.string().nullable() })),
  total_rows: z.number(),
  window: z.object({ start_row: z.number(), end_row: z.number().describe("exclusive") }),
  rows: z.array(timelineRowSchema),
  earlier: z.object({ start_row: z.number() }).nullable(),
  later: z.object({ start_row: z.number() }).nullable(),
  truncated: z.string().nullable(),
};

export function registerThreadTimeline(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "thread_timeline",
    { title: "Thread timeline", description: DESCRIPTION, inputSchema, outputSchema, annotations: READ_ONLY },
    guarded(({ thread, start_row, max_rows, all }) => {
      const w = ctx.cairn.threadTimeline({
        thread,
        all,
        limit: max_rows,
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
      const earlier = start > 0 ? { start_row: Math.max(0, start - max_rows) } : null;
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
    }),
  );
}
