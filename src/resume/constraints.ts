/**
 * Constraints: the user's directives ("don't …", "always …", "make sure …", "use X instead"), kept verbatim with
 * their turn. These are what LLM compaction drops most often (resume-method §2.8), so the ledger never samples them.
 */
import { typedPart } from "../topology/pasted.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { LedgerConstraint } from "./ledger-types.ts";
import { isRequest } from "./requests.ts";

const DIRECTIVE =
  /\b(don'?t|do not|never|always|must(?:n'?t)?|should(?:n'?t)?|make sure|avoid|prefer|instead|no need to|stop)\b|^(no|keep|use|put|leave)\b/i;
/** Pasted logs and specs are not the user's directives. */
const MAX_MESSAGE = 4000;
const MIN_SENTENCE = 8;
const MAX_SENTENCE = 300;

/** Sentences of a message, keeping list items and lines apart. */
function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=\S)/)
    .map((s) => s.trim().replace(/^[-*•]\s+/, ""))
    .filter((s) => s.length >= MIN_SENTENCE);
}

function letterShare(s: string): number {
  const letters = s.match(/[\p{L} ]/gu)?.length ?? 0;
  return letters / s.length;
}

/** Musings and reports ("i think …", "i don't know", "it seems …") use the same words without directing anyone. */
const NOT_DIRECTIVE =
  /^(?:(?:ok|okay|hm+|well|so|yeah|alright)[,.!]*\s+)?(?:i\b|i'm\b|im\b|it\b|it's\b|seems\b|maybe\b|perhaps\b|let me\b|we should be\b)/i;

export function isDirective(sentence: string): boolean {
  if (sentence.length < MIN_SENTENCE || sentence.length > MAX_SENTENCE) return false;
  if (sentence.endsWith("?")) return false; // a question asks; it does not direct
  if (letterShare(sentence) < 0.6) return false; // code, paths and log lines
  if (NOT_DIRECTIVE.test(sentence) && !/\b(never|always|must)\b/i.test(sentence)) return false;
  return DIRECTIVE.test(sentence);
}

export function constraintsOf(events: readonly SessionEvent[]): LedgerConstraint[] {
  const out: LedgerConstraint[] = [];
  const seen = new Map<string, LedgerConstraint>();
  for (const e of events) {
    if (!isRequest(e)) continue;
    // Only the person's words direct; what they pasted (logs, specs, JSON) does not.
    const typed = typedPart(e);
    if (typed.length > MAX_MESSAGE) continue;
    for (const s of sentences(typed)) {
      if (!isDirective(s)) continue;
      const key = s.toLowerCase().replace(/\s+/g, " ");
      const again = seen.get(key);
      if (again) {
        // Said again: it still holds; cite the repeat, keep the first wording.
        again.cites.push(e.event_id);
        continue;
      }
      const c: LedgerConstraint = { text: s, turn: e.turn, ordinal: e.ordinal, cites: [e.event_id] };
      seen.set(key, c);
      out.push(c);
    }
  }
  return out;
}
