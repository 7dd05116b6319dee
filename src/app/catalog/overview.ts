/** `overview`: what `cairn` alone prints: sessions by agent and project, the latest ones with what still fails. */
import { buildOverview, type Overview } from "../../search/overview.ts";
import { question } from "./question.ts";

export type OverviewAnswer = Overview;

export const overview = question({
  name: "overview",
  summary: "sessions by agent and project, and the latest ones with what still fails in them",
  answer: (ctx, _req: undefined): OverviewAnswer => buildOverview(ctx.store()),
});
