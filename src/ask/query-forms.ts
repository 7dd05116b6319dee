/**
 * The forms a question is searched in for an evidence pack, beside the question itself: each identifier, path,
 * file name and error code it names, searched alone (a question naming `dark.json` and `light.json` wants the
 * edits of both, though few events hold both), and whether it asks for the state at the end of a session.
 */

const PATH_RE = /(?:[\w.@~-]+\/)+[\w.@-]+|\b[\w-]+\.[a-z][a-z0-9]{0,5}\b/gi;
const ERROR_CODE_RE = /\b(?:[A-Z]{1,5}\d{2,6}|E[A-Z]{3,}|[A-Z][a-z]+(?:Error|Exception))\b/g;
const IDENT_RE = /\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]+_\w+|[a-z]+-[a-z]+(?:-[a-z]+)*)\b/g;
/** Forms searched at most: each costs a search. */
const MAX_FORMS = 4;

/** The identifiers, paths, file names and error codes of a question, as written, longest first, at most four. */
export function identifierForms(question: string): string[] {
  const found = new Set<string>();
  for (const re of [PATH_RE, ERROR_CODE_RE, IDENT_RE])
    for (const m of question.matchAll(re)) {
      const term = m[0].replace(/[.,;:]+$/, "");
      if (term.length >= 4) found.add(term);
    }
  // a path's file name alone says nothing more than the path
  const terms = [...found].filter((t) => ![...found].some((o) => o !== t && o.includes(t)));
  return terms.sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_FORMS);
}

const END_RE = /\b(?:at|in|by) the end\b|\b(?:still|finally|eventually|in the end|last|latest|ended up|end state)\b/i;
const OUTCOME_RE = /\b(?:did|does|has|have)\b.*\b(?:work|pass|succeed|fix|land|go through|get fixed)\b/i;

/** Whether a question asks how things stood at the end: what was still failing, whether something worked. */
export function asksForEndState(question: string): boolean {
  return END_RE.test(question) || OUTCOME_RE.test(question);
}
