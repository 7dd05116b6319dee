/**
 * AI Resume: a model rewrites the deterministic brief into a shorter one for the next agent, and cairn accepts the
 * result only when it still holds every fact the brief had to keep (word for word, as validation looks for them)
 * and every citation in it checks out against the events the brief cites (the same check as `cairn ask`). Anything
 * less and the deterministic brief stands: the model is an option, never a replacement.
 */
import type { MustKeep } from "../resume/brief-types.ts";
import { signatureView } from "../resume/entities.ts";
import { type CheckedAnswer, checkAnswer } from "./check.ts";
import type { EvidencePack } from "./pack.ts";
import type { AskPrompt } from "./prompt.ts";

const SYSTEM = `You turn a resume brief of a coding-agent session into a shorter brief that another coding agent
reads before it continues the work. The brief you are given is complete and exact; yours is a summary of it.
Rules:
- Use only what the given brief says. Add nothing.
- Copy every line of the "Facts to keep" list into your brief word for word (each may sit inside a sentence).
- After every sentence that states a fact, cite the brief's evidence as [e:<id>], copying ids exactly as they
  appear in the given brief. Never cite an id that is not in it.
- Start with what the user asked for last and where the work stands, then what failed and is still open, the
  constraints, the files in flight, and the next step. Plain markdown, short.`;

/** The prompt for an AI brief: the deterministic brief and the facts that must survive word for word. */
export function aiBriefPrompt(brief: { text: string; must_keep: readonly MustKeep[] }): AskPrompt {
  const facts = brief.must_keep.map((m) => `- ${m.needle}`).join("\n");
  return {
    system: SYSTEM,
    user: `${brief.text.trimEnd()}\n\n## Facts to keep (word for word)\n${facts || "- (none)"}\n`,
  };
}

export interface AiBriefCheck {
  accepted: boolean;
  /** Why it was rejected, one clause each (empty when accepted). */
  reasons: string[];
  /** The must-keep facts the AI brief dropped, as `kind: fact`. */
  missing: string[];
  citations: CheckedAnswer;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Whether the AI brief may replace the deterministic one: every must-keep fact present (an open failure may appear
 * in its normalized form, as in validation), at least one citation, and every citation valid against the pack of
 * the events the deterministic brief cites.
 */
export function checkAiBrief(text: string, mustKeep: readonly MustKeep[], pack: EvidencePack): AiBriefCheck {
  const flat = squash(text);
  let view: string | null = null;
  const found = (m: MustKeep) => {
    if (flat.includes(squash(m.needle))) return true;
    if (m.kind !== "open_failure") return false;
    view ??= squash(signatureView(text));
    return view.includes(squash(m.needle));
  };
  const missing = mustKeep.filter((m) => !found(m)).map((m) => `${m.kind}: ${m.needle}`);
  const citations = checkAnswer(text, pack);
  const all = citations.sentences.flatMap((s) => s.citations);
  const bad = all.filter((c) => c.verdict !== "ok");
  const reasons: string[] = [];
  if (missing.length > 0)
    reasons.push(`it dropped ${missing.length} fact${missing.length === 1 ? "" : "s"} the brief must keep`);
  if (all.length === 0) reasons.push("it cites no evidence");
  if (bad.length > 0) {
    const kinds = [...new Set(bad.map((c) => c.verdict.replace(/_/g, " ")))].join(", ");
    reasons.push(`${bad.length} of its ${all.length} citations do not check out (${kinds})`);
  }
  return { accepted: reasons.length === 0, reasons, missing, citations };
}
