/** `latestSession`: the newest work, anywhere or in one folder (what `resume --latest` briefs). */
import { resolve } from "node:path";
import { latestSession as latest } from "../../store/resolve.ts";
import type { SessionRow } from "../../store/types.ts";
import { question } from "./question.ts";

export const latestSession = question({
  name: "latestSession",
  summary: "the latest session of a person's work, anywhere or in one folder",
  id: "cwd",
  answer: (ctx, req: { cwd?: string } | undefined): SessionRow =>
    latest(ctx.store(), req?.cwd === undefined ? undefined : resolve(ctx.cwd, req.cwd)),
});
