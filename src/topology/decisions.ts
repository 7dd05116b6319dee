/**
 * Decision candidates, found by explicit rules (no model): a user steering or choosing, an assistant stating a
 * decision in so many words, a notebook page, a "Decision" section of a plan file. The rule that fired is kept so
 * a reader can judge it. Status (open / settled / superseded) depends on what follows and is the resume engine's.
 */
import { clip } from "./text.ts";

export const DECISION_RULES = [
  "user_correction",
  "user_redirect",
  "user_choice",
  "user_approval",
  "assistant_decision",
  "assistant_choice",
  "notebook_page",
  "plan_file",
] as const;
export type DecisionRule = (typeof DECISION_RULES)[number];

export interface DecisionCandidate {
  rule: DecisionRule;
  text: string;
}

const MAX = 600;

/** Sentences of a message, keeping list items and lines apart; a question ends its sentence whatever follows. */
function sentences(text: string): string[] {
  const parts = text.split(/\n+|(?<=[.!?])\s+(?=[A-Z(`"'])/);
  const out: string[] = [];
  for (const p of parts) {
    // People rarely capitalise after a question mark ("wait, is it X? we have Y").
    const pieces = p.includes("? ") ? p.split(/(?<=\?)\s+/) : [p];
    for (const piece of pieces) {
      const t = piece.trim();
      if (t.length > 0) out.push(t);
    }
  }
  return out;
}

const USER_RULES: Array<[DecisionRule, RegExp]> = [
  ["user_correction", /^(no|nope|not quite|not that|wrong|stop|wait)\b[,.!:;-]*\s+\S/i],
  ["user_redirect", /\b(instead of|rather than)\b|\b(use|do|try|switch to|go with|keep)\b[^.?!]{0,80}\binstead\b/i],
  [
    "user_choice",
    /^(let'?s|lets|we('ll| will| should)|please)\s+(go with|use|keep|switch to|stick with|drop|avoid|not)\b|\b(go with|stick with|decided to|prefer)\b/i,
  ],
  [
    "user_approval",
    /^(ok|okay|yes|yep|sure|sounds good|lgtm|looks good|agreed|approved|go ahead)\b[,.!:;-]*\s+(do|go|use|proceed|implement|keep|switch|let'?s|then|but|and)\b/i,
  ],
];

/**
 * After "no," or "wait,": a statement of fact ("it's not phase 1", "that's not it") corrects what the agent
 * believes, not what it does; it steers only with a directive in the same sentence ("that's wrong, use X").
 */
const DESCRIPTIVE_AFTER_CORRECTION =
  /^(no|nope|not quite|not that|wrong|stop|wait)\b[,.!:;-]*\s+(it'?s|it is|that'?s|that is|this is|there'?s|there are|they|we (?:have|had|only)|i (?:think|mean|see))\b/i;
/** A clause that starts with an instruction: ", use X", "; keep Y", ": don't …". */
const DIRECTIVE =
  /[,;:—-]\s*(?:please\s+)?(use|do|don'?t|keep|remove|drop|add|put|make|set|change|switch to|go with|stick with|revert|undo)\b/i;

/** A typed user message: at most one decision, the first sentence that steers or chooses (with the next one). */
export function userDecision(text: string): DecisionCandidate | null {
  if (text.length > 4000) return null; // pasted logs and specs are not steering
  const parts = sentences(text);
  for (let i = 0; i < parts.length && i < 12; i++) {
    const sentence = parts[i]!;
    // A question asks; it does not decide ("wait, do we only have one link color?").
    if (sentence.endsWith("?")) continue;
    for (const [rule, re] of USER_RULES) {
      if (re.test(sentence)) {
        if (rule === "user_correction" && DESCRIPTIVE_AFTER_CORRECTION.test(sentence) && !directiveAfter(sentence))
          continue;
        const withNext = parts[i + 1] && sentence.length < 80 ? `${sentence} ${parts[i + 1]}` : sentence;
        return { rule, text: clip(withNext, MAX) };
      }
    }
  }
  return null;
}

const ASSISTANT_DECISION =
  /^(?:[-*]\s*)?(?:\*\*|__)?(decision|approach|chosen approach|design decision|resolution)(?:\*\*|__)?\s*[:—-]\s*(?:\*\*|__)?\s*\S/i;
const ASSISTANT_CHOICE =
  /^(?:I(?:'ll| will| have)? (?:go with|decided to|chose|choose|opt(?:ed)? (?:for|to))|(?:we|let's)(?:'ll| will)? go with|going with)\b/i;

/** Headings of alternatives laid out for someone else to choose from: "Option 1: …", "Alternative B", "Approach 2". */
const OPTION_HEADING =
  /^(?:option|alternative|approach|choice|solution|proposal)\s*(?:\d+|[A-D])\b|^(?:options|alternatives)\b/i;

/**
 * Assistant text: lines that state a decision explicitly ("Decision: …", "I'll go with …"). A list of options is
 * not a choice: labelled lines under an "Option 2" heading, or the same label given to several lines ("Approach:"
 * once per alternative), are left out, and so are questions.
 */
export function assistantDecisions(text: string): DecisionCandidate[] {
  const found: Array<DecisionCandidate & { label: string | null }> = [];
  let inOptions = false;
  for (const line of text.split("\n")) {
    const raw = line.trim();
    const c = raw.charCodeAt(0);
    // Only lines that start with `#`, `*` or `_` can be headings (`## Option 2`, `**Option 2: …**`).
    if (c === 35 || c === 42 || c === 95) {
      const t = raw.replace(/^#+\s*/, "");
      if (c === 35 ? /^#+\s/.test(raw) : /^(?:\*\*|__)[^*_].*(?:\*\*|__):?$/.test(raw))
        inOptions = OPTION_HEADING.test(t.replace(/^(?:\*\*|__)/, ""));
    }
    if (inOptions || raw.length < 12 || raw.endsWith("?")) continue;
    const t = c === 35 ? raw.replace(/^#+\s*/, "") : raw;
    if (t.length < 12) continue;
    const label = ASSISTANT_DECISION.exec(t);
    if (label) found.push({ rule: "assistant_decision", text: clip(t, MAX), label: label[1]!.toLowerCase() });
    else if (ASSISTANT_CHOICE.test(t)) found.push({ rule: "assistant_choice", text: clip(t, MAX), label: null });
  }
  const out: DecisionCandidate[] = [];
  for (const d of found) {
    if (d.label !== null && found.some((o) => o !== d && o.label === d.label)) continue;
    out.push({ rule: d.rule, text: d.text });
    if (out.length >= 3) break;
  }
  return out;
}

/** Whether the words after the correction give an instruction ("that's not it, use the dark theme"). */
function directiveAfter(sentence: string): boolean {
  const rest = sentence.replace(DESCRIPTIVE_AFTER_CORRECTION, "");
  return DIRECTIVE.test(rest);
}

const PLAN_FILE =
  /(^|\/)(plan|plans|decisions?|adr|design|architecture|notes|todo|roadmap)[^/]*\.md$|(^|\/)(adr|decisions)\/[^/]+\.md$/i;

export function isPlanFile(path: string): boolean {
  return PLAN_FILE.test(path);
}

/** "Decision" sections of a written plan or ADR file: the heading's first paragraph. */
export function planFileDecisions(content: string): DecisionCandidate[] {
  const out: DecisionCandidate[] = [];
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,4}\s+(.*\b(decision|decided|adr\b)[^\n]*)$/i.exec(lines[i]!);
    if (!h) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && body.length < 6; j++) {
      const l = lines[j]!.trim();
      if (l.startsWith("#")) break;
      if (l === "" && body.length > 0) break;
      if (l !== "") body.push(l);
    }
    out.push({ rule: "plan_file", text: clip(`${h[1]!.trim()}: ${body.join(" ")}`, MAX) });
    if (out.length >= 5) break;
  }
  return out;
}
