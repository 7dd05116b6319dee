/**
 * Decisions in what the agent told the user: a labelled decision or recommendation ("Decision: …", "## Recommended
 * Solution", "**Best solution**: …"), a stated choice ("I'll go with …", "I think option 2 is cleanest", "let me
 * revert that and instead …", "it should use dim instead"), a verdict on a reviewer's proposal, and deferring part
 * of the work. A list of options is not a choice, a suggestion that ends by asking which option is wanted is still
 * a question, and a fix forced by a failure ("catch the error instead of crashing") chooses nothing.
 */
import { plain, sentences } from "./decision-text.ts";
import type { DecisionCandidate } from "./decision-types.ts";
import { clip } from "./text.ts";

const MAX = 600;

const LABEL =
  /^(decision|approach|chosen approach|design decision|resolution|recommendation|recommended (?:approach|solution|option|fix)|best (?:solution|approach|option)|final (?:decision|design|approach)|design|verdict)\s*[:—-]\s*\S/i;
/** Headings that announce the answer rather than an alternative: "## Recommended Solution", "### Decision". */
const DECISION_HEADING =
  /\b(?:decision|decided|recommended|recommendation|verdict|chosen (?:approach|option|solution)|bottom line)\b|\bfinal (?!status)(?:[\w.]+ ){0,3}(?:change|design|approach|proposal|plan)\b/i;
/** Headings of alternatives laid out for someone else to choose from: "Option 1: …", "Alternative B", "Approach 2". */
const OPTION_HEADING =
  /^(?:option|alternative|approach|choice|solution|proposal)\s*(?:\d+|[A-D])\b|^(?:options|alternatives)\b/i;

const CHOICE =
  /^(?:I(?:'ll| will| have)? (?:go with|decided to|chose|choose|opt(?:ed)? (?:for|to))|(?:we|let's)(?:'ll| will)? go with|going with|let'?s (?:use|stick with|keep|switch to))\b/i;
/** A recommendation: a choice the agent proposes. It stays a question when the message asks which option to take. */
const SUGGESTION =
  /\bI think option \w+ (?:is|makes|would|seems)\b|\boption \w+ (?:is|seems|looks) (?:the )?(?:cleanest|best|simplest|better|right|preferable|way to go)\b|\b(?:the )?(?:best|cleanest|simplest|right|better|recommended) (?:solution|approach|option|fix|choice) (?:is|would be|here is)\b|\bI(?:'d| would) (?:go with|recommend|suggest|pick|choose|opt for)\b|\bI recommend\b/i;
/** "Let me revert that and instead …", "it should use dim instead", "should return the stream, not delegate". */
const INSTEAD =
  /^(?:let me|I'll|I will|we'll|we will|we should|(?:it|this|that|\w+) should)\b[^.]*\b(?:instead|rather than)\b|\bshould\b[^.]{3,120},\s*not\s+\w/i;
/** A report of the choice made: "Footer now uses dim instead of muted", "updated X to use the tokens instead of …". */
const USES_INSTEAD =
  /^(?![^.!?]*\b(?:would|could|might|may)\b)[^.!?]*\b(?:now uses|to use|switched to|changed to)\b[^.!?]{1,100}\binstead of\b/i;
/** Scope kept small on purpose: "it reuses existing tokens so no new design tokens were needed". */
const NOT_NEEDED =
  /\bno (?:new|separate|extra|additional|dedicated) [\w -]{1,40}? (?:is|are|was|were) (?:needed|required|necessary)\b/i;
/** The alternative is a failure nobody would choose: the sentence describes a fix. */
const FIX = /\b(?:fix(?:es|ed|ing)?|wrong|crash(?:es|ing)?|fail(?:s|ed|ing|ure)?|errors?|bugs?|broken|mistake)\b/i;
const REVIEW =
  /\b(?:reviewer|feedback|review|suggestion)\b[^.!?]{0,40}\b(?:is|was|are)\s+(?:absolutely |completely |partly |partially )?(?:right|wrong|correct|incorrect|mistaken)\b|\bapply (?:their|the reviewer'?s|the suggested|this suggested)\b/i;
/** "No JSONL with record types ❌ - that was the wrong approach": the agent drops an approach it took. */
const WRONG_APPROACH = /\b(?:was|is) (?:the )?wrong approach\b|\bthe (?:right|correct) approach is\b/i;
const DEFER =
  /\bfor (?:future|later) consideration\b|\b(?:defer(?:red)?|postpone(?:d)?) (?:\w+ )?(?:to|until|for)\b|\bout of scope\b|\bin a (?:separate|follow-?up|later) (?:effort|pr|change|issue|task)\b/i;
/**
 * Words one of the sentence rules above needs (each rule fails without one of them): most lines of a reply have
 * none, and are not split into sentences and tried against every rule. Keep in step with the rules.
 */
const ANY_RULE =
  /decision|approach|resolution|recommend|best|final|design|verdict|go with|going with|decided to|chose|choose|opt(?:ed)? (?:for|to)|let'?s |option|solution|fix (?:is|would be|here is)|choice|suggest|pick|instead|rather than|should|needed|required|necessary|review|feedback|apply th|consideration|defer|postpone|out of scope|in a (?:separate|follow|later)/i;
/** The message ends by asking which alternative is wanted ("…, or do you want a patch release?"). */
const ASKS_WHICH = /\b(?:or|which|prefer|rather)\b[^?]*\?\s*$/i;

interface Found extends DecisionCandidate {
  label: string | null;
}

/**
 * Assistant text: lines that state a decision explicitly. A list of options is not a choice: labelled lines under
 * an "Option 2" heading, or the same label given to several lines ("Approach:" once per alternative), are left out,
 * and so are questions.
 */
export function assistantDecisions(text: string): DecisionCandidate[] {
  const found: Found[] = [];
  const lines = text.split("\n");
  const asksWhich = ASKS_WHICH.test(lastParagraph(text));
  let inOptions = false;
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw.startsWith("```")) inCode = !inCode;
    if (inCode) continue;
    const heading = headingText(raw);
    if (heading !== null) {
      if (DEFER.test(heading))
        found.push(make("assistant_defer", `${heading}: ${firstLines(lines, i + 1)}`, heading, null));
      inOptions = OPTION_HEADING.test(heading);
      if (!inOptions && DECISION_HEADING.test(heading) && !heading.endsWith("?")) {
        const body = firstLines(lines, i + 1);
        if (body !== "") found.push(make("assistant_decision", `${heading}: ${body}`, body, "heading"));
      }
      continue;
    }
    if (inOptions || raw.length < 12) continue;
    const line = plain(raw);
    if (!ANY_RULE.test(line)) continue;
    const before = found.length;
    for (const s of sentences(line)) {
      if (s.length < 12 || s.endsWith("?")) continue;
      const label = LABEL.exec(s);
      if (label) found.push(make("assistant_decision", s, afterLabel(s), label[1]!.toLowerCase()));
      else if (CHOICE.test(s)) found.push(make("assistant_choice", s, s, null));
      else if (SUGGESTION.test(s) && !asksWhich) found.push(make("assistant_choice", s, s, null));
      else if ((INSTEAD.test(s) || USES_INSTEAD.test(s)) && !FIX.test(s)) found.push(insteadOf(s));
      else if (NOT_NEEDED.test(s) && !FIX.test(s)) found.push(make("assistant_choice", s, s, null));
      else if (REVIEW.test(s)) found.push(make("assistant_review", s, s, null));
      else if (WRONG_APPROACH.test(s)) found.push(make("assistant_choice", s, s, null));
      else if (DEFER.test(s)) found.push(make("assistant_defer", s, s, null));
    }
    // Two sentences of one line ("The reviewer is right. Let me apply their fix:") are one decision.
    if (found.length > before + 1) {
      const [first, ...rest] = found.splice(before);
      found.push({ ...first!, text: clip([first!, ...rest].map((f) => f.text).join(" "), MAX) });
    }
  }
  const out: DecisionCandidate[] = [];
  for (const d of found) {
    if (d.label !== null && d.label !== "heading" && found.some((o) => o !== d && o.label === d.label)) continue;
    const { label: _, ...candidate } = d;
    out.push(candidate);
    if (out.length >= 3) break;
  }
  return out;
}

const ACK =
  /^(?:(?:ah|oh|yes|ok(?:ay)?)[,!.]?\s+)?(?:(?:you'?re|you are) (?:absolutely |totally |completely |quite )?(?:right|correct)|good (?:point|catch|idea|call)|great (?:idea|point|catch)|fair point|agreed|got it|i understand|understood|exactly|brilliant|makes sense|perfect|ok(?:ay)?|yes)\b/i;
/** What an agent says when it only goes to look: "You're right! Let me check the metrics implementation first." */
const ONLY_LOOKING =
  /^(?:let me|i'll|i will|now let me|first,? let me)\s+(?:first\s+)?(?:check|look|read|see|investigate|verify|search|find|trace|examine|analy[sz]e|review|explore|understand|test|try)\b/i;
/** A sentence that says what will be done or how: a plan or a choice, not a diagnosis. */
const PLAN =
  /^(?:let me|let'?s|i'll|i will|we'll|we will|we should|we need|just need|now|so|using|use)\b|\b(?:instead|rather than|should|don'?t need|no need|you want)\b/i;

/**
 * A reply that takes up what the user just said in its own words ("You're right! Let me integrate this into the
 * existing doc as Phase 1"): an acknowledgement and, in the next sentences, a plan or choice that is more than
 * going to look. A diagnosis between the two ("The issue is …") is passed over.
 */
export function restatesUser(text: string, opts: { noFix?: boolean } = {}): string | null {
  const parts = sentences(plain(text.replace(/\n+/g, "\n")))
    .slice(0, 4)
    .map(plain);
  if (parts.length === 0 || !ACK.test(parts[0]!)) return null;
  const sameLine = parts[0]!.replace(ACK, "").replace(/^[\s!.,-]+/, "");
  const candidates = sameLine.length >= 12 ? [sameLine, ...parts.slice(1)] : parts.slice(1);
  for (const c of candidates) {
    if (ONLY_LOOKING.test(c) || (opts.noFix && FIX.test(c))) return null;
    if (c.length >= 12 && PLAN.test(c)) return clip(c === sameLine ? parts[0]! : `${parts[0]!} ${c}`, MAX);
  }
  return null;
}

function make(rule: DecisionCandidate["rule"], text: string, chosen: string, label: string | null): Found {
  return { rule, text: clip(text, MAX), who: "agent", chosen: clip(chosen, 300), label };
}

function insteadOf(s: string): Found {
  const m = /\b(?:instead of|rather than|,\s*not)\s+(.+)$/i.exec(s);
  const found = make("assistant_choice", s, m ? s.slice(0, m.index).trim() : s, null);
  return m ? { ...found, rejected: clip(m[1]!.trim(), 300) } : found;
}

/** The text of a heading line (`## X`, or a line that is all bold), else null. */
function headingText(raw: string): string | null {
  if (/^#{1,6}\s/.test(raw)) return plain(raw.replace(/^#+\s*/, "")).replace(/:$/, "");
  if (/^(?:\*\*|__)[^*_].*(?:\*\*|__):?$/.test(raw) && !/\*\*\s*[:—-]\s*\S/.test(raw))
    return plain(raw).replace(/:$/, "");
  return null;
}

/** The first one or two lines of content under a heading, stopping at the next heading. */
function firstLines(lines: readonly string[], from: number): string {
  const body: string[] = [];
  for (let j = from; j < lines.length && j < from + 8 && body.length < 2; j++) {
    const l = lines[j]!.trim();
    if (l.startsWith("```")) break;
    if (/^#{1,6}\s/.test(l)) {
      if (body.length > 0) break;
      const h = plain(l.replace(/^#+\s*/, ""));
      if (OPTION_HEADING.test(h)) break;
      body.push(h);
      continue;
    }
    if (l !== "") body.push(plain(l));
  }
  return body.join(" ");
}

function afterLabel(s: string): string {
  return s.replace(/^[^:—-]*[:—-]\s*/, "");
}

function lastParagraph(text: string): string {
  const paras = text.trim().split(/\n\s*\n/);
  return (paras[paras.length - 1] ?? "").trim();
}

const CONTRAST =
  /\b(?:instead of|rather than|no longer|wrong approach|than the original|over-?engineered)\b|^instead\b|❌/i;

/** The first line of a message that sets what was chosen against what was dropped. */
export function contrastLine(text: string): string | null {
  let inCode = false;
  for (const line of text.split("\n")) {
    const raw = line.trim();
    if (raw.startsWith("```")) inCode = !inCode;
    // Table rows compare alternatives cell by cell; they are not a statement of what was chosen.
    if (inCode || raw === "" || raw.startsWith("|")) continue;
    const t = plain(raw.replace(/^#+\s*/, ""));
    if (CONTRAST.test(t) && !FIX.test(t)) return clip(t, MAX);
  }
  return null;
}
