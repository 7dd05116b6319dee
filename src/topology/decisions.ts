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

/** Sentences of a message, keeping list items and lines apart. */
function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z(`"'])/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
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

/** A typed user message: at most one decision, the first sentence that steers or chooses (with the next one). */
export function userDecision(text: string): DecisionCandidate | null {
  if (text.length > 4000) return null; // pasted logs and specs are not steering
  const parts = sentences(text);
  for (let i = 0; i < parts.length && i < 12; i++) {
    const sentence = parts[i]!;
    for (const [rule, re] of USER_RULES) {
      if (re.test(sentence)) {
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

/** Assistant text: lines that state a decision explicitly ("Decision: …", "I'll go with …"). */
export function assistantDecisions(text: string): DecisionCandidate[] {
  const out: DecisionCandidate[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim().replace(/^#+\s*/, "");
    if (t.length < 12) continue;
    if (ASSISTANT_DECISION.test(t)) out.push({ rule: "assistant_decision", text: clip(t, MAX) });
    else if (ASSISTANT_CHOICE.test(t)) out.push({ rule: "assistant_choice", text: clip(t, MAX) });
    if (out.length >= 3) break;
  }
  return out;
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
