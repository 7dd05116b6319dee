/**
 * Asking and AI Resume for a long-lived surface (`cairn serve`'s page): the model is chosen from the server's
 * environment or the saved choice (as `cairn ask` chooses it without flags) when first needed, so a server without
 * one still starts, and each request says plainly that none is configured.
 */
import type { AnswerModel } from "../ask/prompt.ts";
import type { AiResume } from "./ai-resume.ts";
import type { AskAnswer } from "./ask-answer.ts";
import { chooseModel, createAnswerModel } from "./ask-model.ts";
import type { ReadCairn } from "./cairn.ts";
import type { Env } from "./open.ts";

export interface AskService {
  /** `onText` streams the model's text as it comes (the terminal UI shows it). */
  ask(req: {
    question: string;
    session?: string;
    budget?: number;
    signal?: AbortSignal;
    onText?: (delta: string) => void;
  }): Promise<AskAnswer>;
  resume(req: {
    session: string;
    budget?: number;
    signal?: AbortSignal;
    onText?: (delta: string) => void;
  }): Promise<AiResume>;
}

export function createAskService(app: ReadCairn, env: Env): AskService {
  let model: Promise<AnswerModel> | null = null;
  const theModel = (): Promise<AnswerModel> => {
    // a failed choice is not remembered: the user may fix the environment or the saved choice and try again
    model ??= createAnswerModel(chooseModel({}, env), env).catch((error: unknown) => {
      model = null;
      throw error;
    });
    return model;
  };
  return {
    async ask(req) {
      return app.ask({ model: await theModel(), ...req });
    },
    async resume(req) {
      const { session, ...rest } = req;
      return app.aiResume({ model: await theModel(), session, ...rest });
    },
  };
}
