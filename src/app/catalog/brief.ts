/** `brief`: the cited resume brief of a session (`cairn resume`, `resume_brief`, the page, pi's /handoff). */
import { resolve } from "node:path";
import { CairnError } from "../../common/errors.ts";
import type { BriefJson } from "../brief.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type BriefInput = Input<"brief">;

export const brief = question({
  name: "brief",
  summary: "a cited brief to resume a session: the ledger, the recent tail and what else fits the budget",
  input: "brief",
  id: "session",
  rules(req: BriefInput) {
    if (req.budget_tokens !== undefined && req.ratio !== undefined)
      throw new CairnError("usage", "give a budget or a ratio, not both");
    if (req.at !== undefined && req.step !== undefined)
      throw new CairnError("usage", "give an event or a step, not both");
  },
  async answer(ctx, req: BriefInput): Promise<BriefJson> {
    const { buildBrief } = await import("../brief.ts");
    const { budget_tokens: budget, cwd, ...rest } = req;
    return buildBrief(ctx.store(), {
      ...rest,
      ...(budget !== undefined ? { budget } : {}),
      ...(cwd !== undefined ? { cwd: resolve(ctx.cwd, cwd) } : {}),
    });
  },
});
