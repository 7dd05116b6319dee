/**
 * The citation check: an answer is split into sentences, and each `[e:<id>]` in a sentence is valid only when the
 * id is an event of the pack and the sentence shares a key term with that event's text in the pack: a number, a
 * path or file name, an error code or a code identifier, or two ordinary words (one when the sentence has no more
 * than three). A sentence with a valid citation is supported; one whose citations all fail is unsupported; one
 * with none is uncited, unless it makes no claim (no key terms at all). The rule is documented in docs/ask.md.
 */
import { citedIds } from "../topology/citation.ts";
import type { EvidencePack } from "./pack.ts";
import { type KeyTerms, keyTerms } from "./terms.ts";

export const CITATION_VERDICTS = ["ok", "not_in_pack", "unknown_id", "no_shared_terms"] as const;
export type CitationVerdict = (typeof CITATION_VERDICTS)[number];

export const SENTENCE_VERDICTS = ["supported", "unsupported", "uncited", "no_claim"] as const;
export type SentenceVerdict = (typeof SENTENCE_VERDICTS)[number];

export interface CitationCheck {
  event_id: string;
  verdict: CitationVerdict;
  /** The key terms the sentence shares with the cited event (empty unless the event is in the pack). */
  shared: string[];
}

export interface CheckedSentence {
  text: string;
  verdict: SentenceVerdict;
  citations: CitationCheck[];
}

export interface CheckedAnswer {
  sentences: CheckedSentence[];
  /** Sentences that make a claim, and how many of them carry a valid citation. */
  claims: number;
  supported: number;
  /** The answer with unsupported and uncited sentences removed (what `--strict` prints). */
  strict_text: string;
}

export interface CheckOptions {
  /** Whether an id names an event in the index at all (to tell an invented id from one outside the pack). */
  exists?: (id: string) => boolean;
}

/** Checks every sentence of an answer against the pack it was written from. */
export function checkAnswer(answer: string, pack: EvidencePack, opts: CheckOptions = {}): CheckedAnswer {
  const texts = new Map<string, KeyTerms>();
  for (const item of pack.items) {
    const known = texts.get(item.event_id);
    const own = `${item.text} ${item.event_type} ${item.status ?? ""} ${item.timestamp?.slice(0, 10) ?? ""}`;
    texts.set(item.event_id, keyTerms(known ? `${known.source} ${own}` : own));
  }
  const sentences = splitSentences(answer).map((text) => checkSentence(text, texts, opts));
  const claims = sentences.filter((s) => s.verdict !== "no_claim").length;
  const supported = sentences.filter((s) => s.verdict === "supported").length;
  const kept = sentences.filter((s) => s.verdict === "supported" || s.verdict === "no_claim");
  return { sentences, claims, supported, strict_text: kept.map((s) => s.text).join(" ") };
}

function checkSentence(text: string, pack: Map<string, KeyTerms>, opts: CheckOptions): CheckedSentence {
  const claim = keyTerms(text.replace(/\[e:[^\]]*\]/g, " "));
  const ids = citedIds(text);
  const citations = ids.map((id): CitationCheck => {
    const event = pack.get(id);
    if (!event) return { event_id: id, verdict: opts.exists?.(id) ? "not_in_pack" : "unknown_id", shared: [] };
    const shared = sharedTerms(claim, event);
    return { event_id: id, verdict: supports(claim, shared) ? "ok" : "no_shared_terms", shared: shared.all };
  });
  const verdict: SentenceVerdict = citations.some((c) => c.verdict === "ok")
    ? "supported"
    : citations.length > 0
      ? "unsupported"
      : claim.strong.size + claim.words.size === 0
        ? "no_claim"
        : "uncited";
  return { text, verdict, citations };
}

function sharedTerms(claim: KeyTerms, event: KeyTerms): { strong: string[]; words: string[]; all: string[] } {
  const strong = [...claim.strong].filter((t) => event.strong.has(t) || event.words.has(t));
  const words = [...claim.words].filter((t) => event.words.has(t) || event.strong.has(t));
  return { strong, words, all: [...strong, ...words] };
}

function supports(claim: KeyTerms, shared: { strong: string[]; words: string[] }): boolean {
  if (shared.strong.length > 0) return true;
  const needed = claim.words.size <= 3 ? 1 : 2;
  return shared.words.length >= needed;
}

/**
 * Sentences: split after `.`, `!` or `?` followed by space, and at line breaks (list items, headings); a run of
 * citations standing alone (`… done. [e:a]`) belongs to the sentence before it. Dots inside names (`auth.ts`,
 * `v1.2`) do not split, since no space follows them.
 */
export function splitSentences(answer: string): string[] {
  const out: string[] = [];
  for (const line of answer.split(/\n+/)) {
    for (const piece of line.split(/(?<=[.!?])\s+(?=\S)/)) {
      const text = piece.trim();
      if (text === "") continue;
      const onlyCites = /^(?:\[e:[^\]]*\][\s.,;]*)+$/.test(text);
      if (onlyCites && out.length > 0) out[out.length - 1] = `${out[out.length - 1]} ${text}`;
      else out.push(text);
    }
  }
  return out;
}
