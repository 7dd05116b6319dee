/** `session_timeline`: a window of one session's events in order, by position or around an event. */
import type { z } from "zod";
import { fitRange, jsonSize, listBudget } from "../bounded-output.ts";
import { dotted, ID_NOTE, sessionSummary, shortTime } from "../format.ts";
import { renderRow, rowData } from "../timeline-rows.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { inputSchema } from "./session-timeline-schema.ts";

export { TIMELINE_ROWS_MAX } from "../limits.ts";

const DESCRIPTION = `Show a window of one indexed session's events in order: prompts, replies, tool calls, outputs (collapsed to their first line), with errors, test results, decisions and resume points marked under the event they came from, and branches shown. Each row has its position @N and event id.
Choose the window with around=EVENT_ID (centered on that event, e.g. a search hit; the session is implied), or from/to positions, or neither for the session's end (where the work stopped). The answer says which positions come before and after, to page with from/to.`;

type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const sessionTimelineTool: CairnTool<Args> = {
  name: "session_timeline",
  title: "Session timeline",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    ({ session: sessionRef, around, from, to, limit, all }) => {
      // The question's rules (catalog/timeline.ts) refuse a window that is not one.
      const w = ctx.cairn.timeline({
        ...(sessionRef !== undefined ? { session: sessionRef } : {}),
        ...(around !== undefined ? { around } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        limit,
        all,
      });
      const s = w.session;
      const last = Math.max(0, s.event_count - 1);
      const anchorEvent = around === undefined ? null : ctx.cairn.resolveEvent(around);
      const tail = anchorEvent === null && from === undefined;
      const win = w.window;
      const rows = w.rows.map(rowData);
      const texts = rows.map(renderRow);
      const anchor = anchorEvent
        ? Math.max(
            0,
            rows.findIndex((r) => r.ordinal >= anchorEvent.ordinal),
          )
        : tail
          ? rows.length - 1
          : 0;
      const fit = fitRange(
        rows.map((r, i) => ({ text: texts[i]!.length + 1, json: jsonSize(r) + 1 })),
        anchor,
        listBudget(),
      );
      const shownFrom = fit.start === 0 ? win.from : rows[fit.start]!.ordinal;
      const shownTo = fit.end >= rows.length ? win.to : rows[fit.end]!.ordinal - 1;
      const earlier = shownFrom > 0 ? { to: shownFrom - 1 } : null;
      const later = shownTo < last ? { from: shownTo + 1 } : null;
      const cut = fit.end - fit.start < rows.length;
      const truncated = cut
        ? `showing ${fit.end - fit.start} of ${rows.length} rows to stay within the size bound; page with from/to`
        : null;
      const summary = sessionSummary(s);
      const lines = [
        `session ${dotted(s.session_id, s.provider, s.kind, s.project, s.cwd, `${shortTime(s.started_at)} → ${shortTime(s.updated_at)}`, `${s.event_count} events`)}${s.title ? ` "${summary.title}"` : ""}`,
        `positions @${shownFrom}–@${shownTo} of @0–@${last}${all ? "" : "; file actions and commands are folded into their calls (all=true lists them)"}. ${ID_NOTE}`,
        "",
        ...(rows.length === 0 ? ["(no events in this window)"] : texts.slice(fit.start, fit.end)),
        "",
      ];
      if (truncated) lines.push(`… ${truncated}`);
      if (earlier) lines.push(`earlier: session_timeline session=${s.session_id} to=${earlier.to}`);
      if (later) lines.push(`later: session_timeline session=${s.session_id} from=${later.from}`);
      return {
        text: lines.join("\n").trimEnd(),
        structured: {
          session: summary,
          window: { from: shownFrom, to: shownTo },
          rows: rows.slice(fit.start, fit.end),
          earlier,
          later,
          truncated,
        },
      };
    },
};
