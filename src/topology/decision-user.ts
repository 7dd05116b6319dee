/**
 * Decisions in what a user typed: steering away from what the agent did or proposed ("no, …", "bad idea", "undo
 * that"), choosing in so many words ("use X instead of Y", "let's go with X", "don't create separate documents"),
 * and answers to the agent's question that approve its proposal or pick one of the options it offered. Questions,
 * corrections of fact and plain requests for work are not decisions.
 */
import { clauses, plain, sentences } from "./decision-text.ts";
import type { AskContext, DecisionCandidate } from "./decision-types.ts";
import { clip } from "./text.ts";

const MAX = 600;
/** Typed text longer than this is a spec or a document, not steering. */
const MAX_TYPED = 4000;
const SHORT = 400;

const CORRECTION = /^(?:no|nope|not quite|not that|wrong|wait[,.!]|stop\s+\w+ing\b)[,.!:;-]*\s+\S/i;
/** "no idea", "no worries": the word, not a refusal. */
const NOT_A_REFUSAL = /^no\s+(?:idea|problem|worries|luck|clue|difference|way|matter|wonder|doubt)\b/i;
/**
 * After "no," or "wait,": a statement of fact ("it's not phase 1", "that's not it") corrects what the agent
 * believes, not what it does; it steers only with a directive in the same sentence ("that's wrong, use X").
 */
const DESCRIPTIVE_AFTER_CORRECTION =
  /^(?:no|nope|not quite|not that|wrong|stop|wait)\b[,.!:;-]*\s+(?:it'?s|it is|that'?s|that is|this is|there'?s|there are|they|we (?:have|had|only)|i (?:think|mean|see))\b/i;
/** A clause that starts with an instruction: ", use X", "; keep Y", ": don't …". */
const DIRECTIVE =
  /[,;:—-]\s*(?:please\s+)?(?:use|do|don'?t|keep|remove|drop|add|put|make|set|change|switch to|go with|stick with|revert|undo)\b/i;

const REJECTION =
  /\b(?:(?:a |an )?(?:bad|terrible|poor) idea|not (?:a )?good idea|i don'?t like (?:this|that|it|the)|(?:undo|revert|roll ?back) (?:that|this|it|those|these|the (?:change|last))|scrap (?:that|this|it)|forget (?:that|this|it)|throw (?:that|this|it) away)\b/i;
const REDIRECT = /\b(?:instead of|rather than)\b|\b(?:use|do|try|switch to|go with|keep)\b[^.?!]{0,80}\binstead\b/i;
/** "use rgb values in the themes, no rgb indices": a choice and the alternative it drops. */
const USE_NOT = /\buse\b[^.?!]{1,80}[,;]\s*(?:no|not)\s+\w/i;
const PROHIBITION =
  /^(?:(?:and|also|but|so|please|pls|just|ok|okay)[,]?\s+)*(?:don'?t|do not|never|no need (?:to|for)|avoid|stop \w+ing)\s+(?!know|understand|think|see|get it|remember|recall|believe|mind|care|worry|forget|be sorry)\w/i;
const CHOICE =
  /^(?:let'?s|lets|we(?:'ll| will| should)|please)\s+(?:go with|use|keep|switch to|stick with|drop|avoid|not|set\b[^.?!]{0,60}\b(?:to|as|same)\b)|\b(?:go with|stick with|decided to|we (?:just |only )want\b|i(?:'d| would)? prefer)\b/i;
/** "i think it should be toolTitle and toolOutput?": an opinion that tells the agent what to do. */
const OPINION =
  /^(?:(?:ok|okay|well|hm+|so|yeah|alright)[,.!]*\s+)*i (?:think|guess|feel|believe) (?:that )?(?:it|this|that|we|they|our|the|you|there)\b[^.?!]{0,80}\b(?:should|needs?\b(?! to (?:check|look|see|find))|must|has to|have to)\b/i;

/** A bare approval of the agent's proposal: "yes", "sure, go ahead", "ok do that". */
const APPROVAL =
  /^(?:yes|yeah|yep|yup|sure|ok|okay|sounds good|go ahead|go for it|do it|do that|let'?s do (?:it|that)|agreed|approved|lgtm|looks good|perfect)\b/i;
/** An instruction that answers a proposal with a different plan ("track it in the same file as metrics"). */
const IMPERATIVE =
  /^(?:(?:just|please|then|instead)\s+)?(?:use|track|put|add|make|keep|move|store|set|create|remove|drop|change|switch|rename|split|merge|extend|reuse|write|implement|integrate|skip|leave|go)\b/i;

export function userDecision(text: string, ask: AskContext | null): DecisionCandidate | null {
  if (text.length > MAX_TYPED) return null;
  const parts = sentences(text);
  for (let i = 0; i < parts.length && i < 12; i++) {
    const sentence = plain(parts[i]!);
    const found = sentenceRule(sentence);
    if (!found) continue;
    // A short message is its own best context; a longer one keeps the deciding sentence and the one after it.
    const withNext = parts[i + 1] && sentence.length < 80 ? `${sentence} ${plain(parts[i + 1]!)}` : sentence;
    return { ...found, text: clip(text.length <= SHORT ? text.trim() : withNext, MAX), who: "user" };
  }
  return ask ? answer(parts, ask) : null;
}

function sentenceRule(sentence: string): Omit<DecisionCandidate, "text" | "who"> | null {
  const question = sentence.endsWith("?");
  // A question asks; it does not decide ("wait, do we only have one link color?") — unless it is an opinion
  // about what should be done, phrased with a question mark.
  if (question) return OPINION.test(sentence) ? { rule: "user_choice", chosen: sentence } : null;
  if (CORRECTION.test(sentence) && !NOT_A_REFUSAL.test(sentence)) {
    if (!DESCRIPTIVE_AFTER_CORRECTION.test(sentence) || directiveAfter(sentence))
      return { rule: "user_correction", chosen: afterFirstWord(sentence), rejectsPrevious: true };
  }
  if (REJECTION.test(sentence)) return { rule: "user_rejection", rejectsPrevious: true };
  const instead = /\b(?:instead of|rather than)\b\s*(.+)$/i.exec(sentence);
  if (instead)
    return {
      rule: "user_redirect",
      chosen: sentence.slice(0, instead.index).trim() || sentence,
      rejected: instead[1]!.trim(),
    };
  if (REDIRECT.test(sentence)) return { rule: "user_redirect", chosen: sentence };
  const useNot = USE_NOT.exec(sentence);
  if (useNot) {
    const [chosen, rejected] = splitOnce(sentence, /[,;]\s*(?:no|not)\s+/i);
    return { rule: "user_redirect", chosen, ...(rejected ? { rejected } : {}) };
  }
  for (const c of clauses(sentence)) {
    if (PROHIBITION.test(c)) return { rule: "user_choice", rejected: c.replace(/^\W+/, "") };
  }
  if (CHOICE.test(sentence)) return { rule: "user_choice", chosen: sentence };
  if (OPINION.test(sentence)) return { rule: "user_choice", chosen: sentence };
  return null;
}

/** The reply right after the agent asked something: approving its proposal or picking an option it offered. */
function answer(
  parts: readonly string[],
  ask: AskContext,
): (Omit<DecisionCandidate, "text"> & { text: string }) | null {
  const first = plain(parts[0] ?? "");
  if (first === "" || first.endsWith("?")) return null;
  const text = clip(parts.slice(0, 2).map(plain).join(" "), MAX);
  // "minor, this is a big change" after "…version:minor… Or do you want a patch release?"
  const head = (first.split(/[,.;:!(]/)[0] ?? "").trim().toLowerCase();
  const headWords = head.split(/\s+/).filter((w) => w !== "");
  if (headWords.length > 0 && headWords.length <= 3 && !APPROVAL.test(first)) {
    const picked = headWords.find((w) => ask.words.includes(w));
    if (picked) return { rule: "user_choice", text, who: "user", chosen: head };
  }
  if (ask.procedural) return null;
  if (ask.proposal && APPROVAL.test(first)) return { rule: "user_approval", text, who: "user", approves: true };
  if (ask.proposal && IMPERATIVE.test(first)) return { rule: "user_redirect", text, who: "user", chosen: first };
  return null;
}

/** Whether the words after the correction give an instruction ("that's not it, use the dark theme"). */
function directiveAfter(sentence: string): boolean {
  return DIRECTIVE.test(sentence.replace(DESCRIPTIVE_AFTER_CORRECTION, ""));
}

function afterFirstWord(sentence: string): string {
  return sentence.replace(/^\w+[,.!:;-]*\s*/, "");
}

function splitOnce(text: string, re: RegExp): [string, string | null] {
  const m = re.exec(text);
  return m ? [text.slice(0, m.index).trim(), text.slice(m.index + m[0].length).trim()] : [text, null];
}
