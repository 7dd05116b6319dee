/** `ask`: a question answered by a model from the evidence pack, every citation checked. */
import type { AnswerModel } from "../../ask/prompt.ts";
import type { AskAnswer, AskRequest } from "../ask-answer.ts";
import { question } from "./question.ts";

export const ask = question({
  name: "ask",
  summary: "a question answered by a model from your history, every claim cited and checked",
  // The model's words did not come through the redacting view.
  scan: true,
  async answer(ctx, req: AskRequest & { model: AnswerModel }): Promise<AskAnswer> {
    const { model, onText, ...rest } = req;
    const stream = onText ? { onText: (delta: string) => onText(ctx.shapeText(delta)) } : {};
    const { askQuestion } = await import("../ask-answer.ts");
    return askQuestion(ctx.app(), model, { ...rest, ...stream });
  },
});
