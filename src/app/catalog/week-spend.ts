/** `weekSpend`: this week's spend and its costliest session, the overview's one line of usage. */
import { question } from "./question.ts";
import { type WeekUsage, weekUsage } from "./usage.ts";

export const weekSpend = question({
  name: "weekSpend",
  summary: "what this week's model calls cost (weeks from Monday) and the session that cost most",
  answer: (ctx, _req: undefined): WeekUsage | null => weekUsage(ctx),
});
