/** How `cairn resume --ai` reports the model's brief: one line on stderr, and an `ai` object in the JSON. */
import type { AiResume } from "../../app/ai-resume.ts";

export function aiVerdict(ai: AiResume): string {
  const facts = ai.brief.must_keep.length;
  const cites = ai.check.citations.sentences.reduce((n, s) => n + s.citations.length, 0);
  if (ai.chosen === "ai")
    return `${ai.model} wrote the brief (${ai.ai_tokens} tokens, the deterministic one ${ai.brief.tokens}); it keeps all ${facts} must-keep facts and its ${cites} citations check out`;
  const missing = ai.check.missing
    .slice(0, 3)
    .map((m) => m.slice(0, 90))
    .join("; ");
  return `the brief ${ai.model} wrote was rejected: ${ai.check.reasons.join(", and ")}${missing ? ` (${missing})` : ""}; this is the deterministic brief`;
}

export function aiJson(ai: AiResume) {
  return {
    model: ai.model,
    chosen: ai.chosen,
    accepted: ai.check.accepted,
    reasons: ai.check.reasons,
    missing: ai.check.missing,
    text: ai.ai_text,
    tokens: ai.ai_tokens,
    sentences: ai.check.citations.sentences,
  };
}
