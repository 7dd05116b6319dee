/** `timeline`: a window of one session's events in order (`cairn timeline`, `session_timeline`, the page). */
import { CairnError } from "../../common/errors.ts";
import { type TimelineWindow, timelineWindow } from "../timeline.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type TimelineRequest = Input<"timeline">;

export const timeline = question({
  name: "timeline",
  summary: "a session's events in order: its end, a stretch from a position or a time, or the rows around an event",
  input: "timeline",
  id: "session",
  rules(req: TimelineRequest) {
    if (req.session === undefined && req.around === undefined)
      throw new CairnError("usage", "give a session (an id or prefix) or an event to show the rows around");
    if (req.around !== undefined && (req.from !== undefined || req.to !== undefined))
      throw new CairnError("usage", "give an event to center on or positions (from/to), not both");
    if (req.from !== undefined && req.to !== undefined && req.from > req.to)
      throw new CairnError("usage", `from (${req.from}) is after to (${req.to})`);
  },
  answer: (ctx, req: TimelineRequest): TimelineWindow => timelineWindow(ctx.store(), { now: ctx.now(), ...req }),
});
