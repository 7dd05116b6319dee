/**
 * Question intent: "what did we decide about X" asks for decisions. The intent's words name the kind of evidence,
 * not its subject; the subject is the query's other content words. (Mapping "still failing" to errors and failed
 * checks, and "did X work in the end" to outcomes, lost more than it won on the judged questions, so they rely
 * on recency and the outcome bundles instead.)
 */
import type { EventType } from "../topology/types.ts";
import type { ParsedQuery, TextTerm } from "./query.ts";

const DECIDE = new Set(["decide", "decided", "decision", "decisions", "agree", "agreed", "chose", "choose", "chosen"]);
/** Words that introduce the subject ("about the footer") and are not part of it. */
const ABOUT = new Set(["about", "regarding", "concerning", "around"]);

export interface Intent {
  kinds: EventType[];
  /** The subject: the query's content words without the intent's. */
  terms: TextTerm[];
}

/** The intent of a plain-words question, or null (a query with prefixes or kinds already says what it wants). */
export function intentOf(parsed: ParsedQuery, stopwords: ReadonlySet<string>): Intent | null {
  if (parsed.prefixes.length > 0 || parsed.kinds.length > 0 || parsed.secrets) return null;
  const plain = parsed.terms.filter((t) => !t.phrase && !t.negated && !t.or);
  const words = plain.map((t) => t.text.toLowerCase().replace(/[?.!,]+$/, ""));
  if (!words.some((w) => DECIDE.has(w))) return null;
  const terms = plain.filter((_, i) => !DECIDE.has(words[i]!) && !ABOUT.has(words[i]!) && !stopwords.has(words[i]!));
  return terms.length > 0 ? { kinds: ["decision"], terms } : null;
}
