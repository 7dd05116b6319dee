/** `event`: one event whole, with its edges resolved (`cairn show`, `get_event`); its text paged when asked. */
import { type EventAnswer, eventAnswer } from "../event.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type EventRequest = Input<"event">;

export interface PagedEventAnswer extends EventAnswer {
  /** The characters of the text this answer holds, and its whole length. */
  text_range: { offset: number; end: number; length: number };
}

export const event = question({
  name: "event",
  summary: "one event with its edges in and out, each resolved to what it points at",
  input: "event",
  id: "event_id",
  answer(ctx, req: EventRequest): PagedEventAnswer {
    const answer = eventAnswer(ctx.store(), req.event_id);
    const text = answer.event.text;
    const offset = Math.min(req.offset ?? 0, text.length);
    const end = req.max_chars === undefined ? text.length : Math.min(text.length, offset + req.max_chars);
    const shown = offset === 0 && end === text.length ? text : text.slice(offset, end);
    return { ...answer, event: { ...answer.event, text: shown }, text_range: { offset, end, length: text.length } };
  },
});
