/** `eventChain`: an event with its session and the events above it (the page's and the terminal UI's event view). */
import { CairnError } from "../../common/errors.ts";
import { eventAnswer } from "../event.ts";
import { type EventWithChain, withChain } from "../event-chain.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export const eventChain = question({
  name: "eventChain",
  summary: "an event with its session and the chain of events it came from",
  input: "eventChain",
  id: "event_id",
  answer(ctx, req: Input<"eventChain">): EventWithChain {
    const store = ctx.store();
    const chained = withChain(store, eventAnswer(store, req.event_id));
    if (!chained) throw new CairnError("not_found", `the session of event ${req.event_id} is not in the index`);
    return chained;
  },
});
