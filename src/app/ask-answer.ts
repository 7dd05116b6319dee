/**
 * `cairn ask` end to end: the pack, the model's streamed answer, the citation check, and the cited events as one
 * line each. Surfaces print what this returns; `--dry-run` stops after the pack.
 */
import { type CheckedAnswer, checkAnswer } from "../ask/check.ts";
import type { EvidencePack } from "../ask/pack.ts";
import { type AnswerModel, askPrompt } from "../ask/prompt.ts";
import { citedIds } from "../topology/citation.ts";
import { evidencePack, type PackRequest } from "./ask.ts";
import type { AskDeps } from "./ask-deps.ts";
import { oneLine } from "./text.ts";

export interface CitedEvent {
  event_id: string;
  timestamp: string | null;
  provider: string;
  event_type: string;
  status: string | null;
  session_id: string;
  /** The event's first line, short. */
  line: string;
  /** Whether the event was in the pack (a citation outside it never counts). */
  in_pack: boolean;
}

export interface AskAnswer {
  question: string;
  model: string;
  answer: string;
  check: CheckedAnswer;
  cited: CitedEvent[];
  pack: EvidencePack;
}

export interface AskRequest extends PackRequest {
  signal?: AbortSignal;
  onText?: (delta: string) => void;
}

/** Gathers the pack, asks the model (streaming through `onText`), and checks every citation of its answer. */
export async function askQuestion(app: AskDeps, model: AnswerModel, req: AskRequest): Promise<AskAnswer> {
  const pack = await evidencePack(app, req);
  const answer = await model.answer(askPrompt(pack), {
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.onText ? { onText: req.onText } : {}),
  });
  const store = app.reader();
  const exists = (id: string) => store.getEventHead(id, 0) !== undefined;
  const check = checkAnswer(answer, pack, { exists });
  const inPack = new Set(pack.items.map((i) => i.event_id));
  const cited: CitedEvent[] = [];
  for (const id of citedIds(answer)) {
    const event = store.getEventHead(id, 400);
    if (!event) continue;
    cited.push({
      event_id: id,
      timestamp: event.timestamp,
      provider: event.provider,
      event_type: event.event_type,
      status: event.status,
      session_id: event.session_id,
      line: oneLine(event.text, 100),
      in_pack: inPack.has(id),
    });
  }
  return { question: req.question, model: model.name, answer, check, cited, pack };
}
