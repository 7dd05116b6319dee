/**
 * `cairn resume --ai`: the deterministic brief first (always built, always the fallback), then a model's shorter
 * rewrite of it, accepted only when `ask/ai-brief.ts`'s check passes. The pack the citations are checked against is
 * every event the deterministic brief cites, with the brief's own lines that cite it.
 */
import { type AiBriefCheck, aiBriefPrompt, checkAiBrief } from "../ask/ai-brief.ts";
import { buildPack, type EvidencePack, type PackCandidate } from "../ask/pack.ts";
import type { AnswerModel } from "../ask/prompt.ts";
import { createTokenCounter } from "../resume/tokens.ts";
import { citedIds } from "../topology/citation.ts";
import type { AskDeps } from "./ask-deps.ts";
import type { BriefJson } from "./brief.ts";
import type { Input } from "./catalog/inputs.ts";

export interface AiResumeRequest extends Input<"brief"> {
  signal?: AbortSignal;
  onText?: (delta: string) => void;
}

export interface AiResume {
  /** The deterministic brief, as `cairn resume` builds it. */
  brief: BriefJson;
  model: string;
  /** What the model wrote. */
  ai_text: string;
  /** Its tokens (o200k), beside the brief's. */
  ai_tokens: number;
  check: AiBriefCheck;
  /** The brief to hand over: the model's when accepted, else the deterministic one. */
  chosen: "ai" | "deterministic";
  text: string;
}

/** Characters of a cited event read into the pack, beside the brief's lines that cite it. */
const READ_CHARS = 1500;

export async function aiResume(app: AskDeps, model: AnswerModel, req: AiResumeRequest): Promise<AiResume> {
  const { signal, onText, ...briefReq } = req;
  const brief = await app.brief(briefReq);
  const pack = briefPack(app, brief);
  const aiText = await model.answer(aiBriefPrompt(brief), {
    ...(signal ? { signal } : {}),
    ...(onText ? { onText } : {}),
  });
  const check = checkAiBrief(aiText, brief.must_keep, pack);
  const chosen = check.accepted ? "ai" : "deterministic";
  return {
    brief,
    model: model.name,
    ai_text: aiText,
    ai_tokens: createTokenCounter().count(aiText),
    check,
    chosen,
    text: check.accepted ? `${aiText.trimEnd()}\n` : brief.text,
  };
}

/** Every event the brief cites, its text being the brief's lines that cite it and then the event's own head. */
function briefPack(app: AskDeps, brief: BriefJson): EvidencePack {
  const store = app.reader();
  const lines = new Map<string, string[]>();
  for (const line of brief.text.split("\n"))
    for (const id of citedIds(line)) lines.set(id, [...(lines.get(id) ?? []), line.replace(/\[e:[^\]]*\]/g, "")]);
  const candidates: PackCandidate[] = [];
  for (const ref of brief.citations) {
    const event = store.getEventHead(ref.event_id, READ_CHARS);
    if (!event) continue;
    candidates.push({
      event_id: event.event_id,
      session_id: event.session_id,
      provider: event.provider,
      timestamp: event.timestamp,
      event_type: event.event_type,
      status: event.status,
      text: `${(lines.get(event.event_id) ?? []).join("\n")}\n${event.text}`,
      reason: "ledger",
    });
  }
  // The pack only checks citations here: a budget that holds every cited event, each up to the read length.
  return buildPack("resume brief", candidates, {
    budget: Number.MAX_SAFE_INTEGER,
    counter: { name: "chars/4", count: (s: string) => Math.ceil(s.length / 4) },
    sessionId: brief.session_id,
    maxItemChars: READ_CHARS * 2,
  });
}
