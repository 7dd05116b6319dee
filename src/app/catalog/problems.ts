/** `problems`: the lines of transcripts cairn could not read, with where and why. */
import type { Problem } from "../../topology/types.ts";
import { question } from "./question.ts";

export const problems = question({
  name: "problems",
  summary: "transcript lines that could not be read, with file, line and reason",
  answer: (ctx, req: { limit?: number } | undefined): Problem[] => ctx.store().problems(req?.limit),
});
