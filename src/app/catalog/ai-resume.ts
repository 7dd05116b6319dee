/** `aiResume`: the deterministic brief and a model's shorter rewrite of it, taken only when it keeps every fact. */
import type { AnswerModel } from "../../ask/prompt.ts";
import type { AiResume, AiResumeRequest } from "../ai-resume.ts";
import { question } from "./question.ts";

export const aiResume = question({
  name: "aiResume",
  summary: "a model's shorter rewrite of the resume brief, accepted only when it keeps every must-keep fact",
  scan: true,
  async answer(ctx, req: AiResumeRequest & { model: AnswerModel }): Promise<AiResume> {
    const { model, onText, ...rest } = req;
    const stream = onText ? { onText: (delta: string) => onText(ctx.shapeText(delta)) } : {};
    const { aiResume: rewrite } = await import("../ai-resume.ts");
    return rewrite(ctx.app(), model, { ...rest, ...stream });
  },
});
