/**
 * What the model is told: answer only from the pack, cite `[e:<id>]` after every claim, say so when the pack does
 * not hold the answer. The model itself sits behind `AnswerModel`, so that this layer never touches the network.
 */
import { type EvidencePack, renderPack } from "./pack.ts";

export interface AskPrompt {
  system: string;
  user: string;
}

export interface AnswerOptions {
  signal?: AbortSignal;
  /** Each piece of the answer as it arrives. */
  onText?: (delta: string) => void;
}

/** A model that answers a prompt, streaming; the real one is pi-ai's (src/app/ask-model.ts), tests use fakes. */
export interface AnswerModel {
  /** `provider/model`, reported beside the answer. */
  readonly name: string;
  answer(prompt: AskPrompt, opts?: AnswerOptions): Promise<string>;
}

const SYSTEM = `You answer questions about a developer's past coding-agent sessions, using only the evidence given.
Rules:
- Use only the evidence blocks in the message. Do not use outside knowledge or guess.
- After every sentence that states a fact, cite the evidence it comes from as [e:<id>], copying the id exactly
  from the block's header, e.g. [e:68be490e1b902d01]. Several: [e:<id>,<id>].
- Repeat the exact names from the evidence (file paths, commands, error messages, numbers) in your sentences.
- If the evidence does not answer the question, say so in one sentence without a citation.
- Be brief: a few sentences or a short list.`;

export function askPrompt(pack: EvidencePack): AskPrompt {
  return { system: SYSTEM, user: renderPack(pack) };
}
