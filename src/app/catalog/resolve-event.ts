/** `resolveEvent`: an event by id, unique prefix or citation, optionally within one session. */
import { resolveEventId } from "../../store/resolve.ts";
import type { SessionEvent } from "../../topology/types.ts";
import { question } from "./question.ts";

export const resolveEvent = question({
  name: "resolveEvent",
  summary: "an event by id, unique prefix or [e:ID], optionally within one session",
  id: "event_id",
  answer: (ctx, req: { event_id: string; session_id?: string }): SessionEvent =>
    resolveEventId(ctx.store(), req.event_id, req.session_id === undefined ? {} : { sessionId: req.session_id }),
});
