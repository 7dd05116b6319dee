/**
 * Question intent: what kind of evidence a plain-words question asks for. The intent's words name the kind of
 * evidence, not its subject; the subject is the query's other content words.
 * - "what did we decide about X": decisions on X lead.
 * - "what was still failing (at the end)", "what was still broken with X": the words of X, the latest of each
 *   session first ("still", "failing" are in every failure report and say nothing about X); the application puts
 *   the ledger's failures about X first.
 * - "did X work (in the end)", "did the X check pass": the latest events about X first (as "in the end" asks).
 */
import type { EventType } from "../topology/types.ts";
import type { ParsedQuery, TextTerm } from "./query.ts";

const DECIDE = new Set(["decide", "decided", "decision", "decisions", "agree", "agreed", "chose", "choose", "chosen"]);
/** Words that introduce the subject ("about the footer") and are not part of it. */
const ABOUT = new Set(["about", "regarding", "concerning", "around", "with"]);
const STILL = new Set(["still", "remaining", "remained", "unresolved", "unfixed"]);
const FAILING = new Set([
  "fail",
  "fails",
  "failed",
  "failing",
  "failure",
  "failures",
  "broken",
  "broke",
  "breaking",
  "crash",
  "crashed",
  "crashes",
  "crashing",
  "error",
  "errors",
  "erroring",
]);
const ASK = new Set(["did", "does", "do", "has", "have", "was", "were", "is"]);
const WORKED = new Set([
  "work",
  "worked",
  "works",
  "working",
  "pass",
  "passed",
  "passes",
  "passing",
  "succeed",
  "succeeded",
  "succeeds",
  "run",
  "ran",
]);

/** Words that name a kind of work, not which: "the knip check", "the streaming fix". */
const GENERIC_SUBJECT = new Set(["check", "checks", "test", "tests", "build", "fix", "fixes", "change", "changes"]);

export type IntentName = "decision" | "still-failing" | "end-state";

export interface Intent {
  name: IntentName;
  /** The kinds that lead (none: the intent only changes the words and the order). */
  kinds: EventType[];
  /** The subject: the query's content words without the intent's. */
  terms: TextTerm[];
  /** The words every match is ranked by: the whole query, or only the subject when the intent's words are noise. */
  words: TextTerm[];
  /** Later events of a session first. */
  recent: boolean;
}

/** The intent of a plain-words question, or null (a query with prefixes or kinds already says what it wants). */
export function intentOf(parsed: ParsedQuery, stopwords: ReadonlySet<string>): Intent | null {
  if (parsed.prefixes.length > 0 || parsed.kinds.length > 0 || parsed.secrets) return null;
  const plain = parsed.terms.filter((t) => !t.phrase && !t.negated && !t.or);
  const words = plain.map((t) => t.text.toLowerCase().replace(/[?.!,]+$/, ""));
  const subject = (drop: (w: string, i: number) => boolean) =>
    plain.filter((_, i) => !drop(words[i]!, i) && !ABOUT.has(words[i]!) && !stopwords.has(words[i]!));
  if (words.some((w) => DECIDE.has(w))) {
    const terms = subject((w) => DECIDE.has(w));
    return terms.length > 0
      ? { name: "decision", kinds: ["decision"], terms, words: parsed.terms, recent: !!parsed.recent }
      : null;
  }
  const failing = words.some((w) => FAILING.has(w));
  if (failing && (words.some((w) => STILL.has(w)) || parsed.recent)) {
    const terms = subject((w) => STILL.has(w) || FAILING.has(w));
    // No kind leads here by words: the failures about X are the ledger's, which the application puts first
    // (app/open-failures.ts); errors merely holding a word of X led with noise ("Command exited with code 1").
    return {
      name: "still-failing",
      kinds: [],
      terms,
      words: terms.length > 0 ? terms : parsed.terms,
      recent: true,
    };
  }
  if (ASK.has(words[0] ?? "") && words.some((w) => WORKED.has(w))) {
    const terms = subject((w, i) => (i === 0 && ASK.has(w)) || WORKED.has(w));
    // The asking words stay among the words ("it works", "all checks pass" are how answers are put), and no kind
    // leads: leading with the last checks on X lost more than it won on the judged questions.
    if (terms.length === 0) return null;
    // "the knip check": when the subject has a name of its own, words every check or fix holds rank nothing.
    const own = terms.filter((t) => !GENERIC_SUBJECT.has(t.text.toLowerCase()));
    const words =
      own.length > 0 ? parsed.terms.filter((t) => !GENERIC_SUBJECT.has(t.text.toLowerCase())) : parsed.terms;
    return { name: "end-state", kinds: [], terms, words, recent: true };
  }
  return null;
}

/** Whether an event of a leading kind answers the intent: a check that passed is no failure. */
export function answersIntent(intent: Intent, e: { event_type: string; status: string | null }): boolean {
  return !(intent.name === "still-failing" && e.event_type === "test_result" && e.status === "pass");
}
