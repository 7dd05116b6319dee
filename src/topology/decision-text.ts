/** Text helpers of the decision rules: sentences, clauses and the subject words two decisions can share. */

/** Sentences of a message, keeping list items and lines apart; a question ends its sentence whatever follows. */
export function sentences(text: string): string[] {
  // Prose wrapped at a fixed width (pasted review comments) continues on the next line in lower case.
  const unwrapped = text.includes("\n") ? text.replace(/([^\s.!?:])\n(?=[a-z(])/gu, "$1 ") : text;
  const parts = unwrapped.split(/\n+|(?<=[.!?])\s+(?=[A-Z(`"'])/);
  const out: string[] = [];
  for (const p of parts) {
    // People rarely capitalise after a question mark or a full stop ("wait, is it X? we have Y").
    const pieces = /[?.!] [a-z]/.test(p) ? p.split(/(?<=[?.!])\s+(?=[a-z])/) : [p];
    for (const piece of pieces) {
      const t = piece.trim();
      if (t.length > 0) out.push(t);
    }
  }
  return out;
}

/** The clauses of a sentence: what its commas, semicolons and dashes separate. */
export function clauses(sentence: string): string[] {
  return sentence
    .split(/\s*[,;:]\s+|\s+[—–-]\s+/)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Markdown emphasis and list markers that hide the words a rule looks at. */
export function plain(line: string): string {
  return line
    .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/^(?:\p{Extended_Pictographic}|\uFE0F|\s)+/u, "")
    .trim();
}

const STOP = new Set(
  (
    "the a an and or but if then so to of in on at for with by from into over as is are was were be been being " +
    "it its this that these those there here we you i me my our your they them their he she his her not no yes " +
    "do does did done can could should would will shall may might must just also only all any some more most " +
    "very much many now then than too again still even about like make made use used using get got let lets " +
    "need needs one two new old same other each which what when where who why how what's it's that's don't " +
    "ok okay yeah sure right good great perfect thing things way really actually maybe well want have has had " +
    "add added keep set put see look check let's i'll we'll you're decision decided approach solution option " +
    "recommended recommendation final chosen instead rather"
  ).split(" "),
);

/**
 * Words that name what a decision is about: identifiers and paths as written, other words of four letters or more
 * that are not function words. Two decisions sharing two of them are about the same subject.
 */
export function subjectTerms(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}_$@./-]+/gu)) {
    const raw = m[0].replace(/^[./-]+|[./-]+$/g, "");
    const w = raw.toLowerCase();
    if (w.length < 4 || STOP.has(w) || /^\d+$/.test(w)) continue;
    // Plain words lose a plural or tense ending; identifiers and paths stay as written.
    out.add(w.length > 5 && /^\p{L}+$/u.test(w) ? w.replace(/(?:ing|ed|es|s)$/, "") : w);
    if (out.size >= 40) break;
  }
  return [...out];
}

export function sharedTerms(a: readonly string[], b: readonly string[]): number {
  const set = new Set(a);
  let n = 0;
  for (const t of b) if (set.has(t)) n++;
  return n;
}
