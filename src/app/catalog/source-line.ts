/** `sourceLine`: the transcript line an event was read from, as the agent wrote it (`cairn show --source`). */
import { resolveEventId } from "../../store/resolve.ts";
import { readSourceLine, type SourceLineAnswer } from "../source-line.ts";
import { question } from "./question.ts";

export const sourceLine = question({
  name: "sourceLine",
  summary: "the transcript line an event was read from, read from the agent's file",
  id: "event_id",
  answer(ctx, req: { event_id: string }): SourceLineAnswer {
    const event = resolveEventId(ctx.store(), req.event_id);
    const line = readSourceLine(event.source_file, event.source_line);
    // Read from the file, not the index: the session's findings are taken out of it here.
    return { ...line, text: ctx.sessionText(event.session_id, line.text) };
  },
});
