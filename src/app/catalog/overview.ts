/** `overview`: what `cairn` alone prints: sessions by agent and project, the latest ones with what still fails. */
import { buildOverview, type Overview } from "../../search/overview.ts";
import { question } from "./question.ts";
import { type WeekUsage, weekUsage } from "./usage.ts";

export interface OverviewAnswer extends Overview {
  /** What this week's model calls cost and the session that cost most; null when no agent recorded tokens. */
  week_usage: WeekUsage | null;
}

export const overview = question({
  name: "overview",
  summary: "sessions by agent and project, the latest ones with what still fails in them, and this week's spend",
  answer: (ctx, _req: undefined): OverviewAnswer => ({ ...buildOverview(ctx.store()), week_usage: weekUsage(ctx) }),
});
