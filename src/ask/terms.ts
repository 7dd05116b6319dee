/**
 * Key terms of a text, for the citation check: strong terms (numbers, paths and file names, error codes, code
 * identifiers) that name one thing, and ordinary words (lower-cased, common endings cut, stopwords dropped).
 */

export interface KeyTerms {
  source: string;
  strong: Set<string>;
  words: Set<string>;
}

const STOP = new Set(
  (
    "a an and are as at be been but by can could did do does done for from had has have he her his how i if in into " +
    "is it its it's of on or our she so than that the their them then there these they this those to was we were " +
    "what when where which while who why will with would you your also after before about over under more most " +
    "some any all each other such only very just first last then because using used use make made get got one two " +
    "answer evidence event events session sessions agent user assistant claim cited according shows show said says"
  ).split(" "),
);

const PATH_RE = /(?:[\w.@~-]+\/)+[\w.@-]+|\b[\w-]+\.[a-z][a-z0-9]{0,5}\b/gi;
const ERROR_CODE_RE = /\b(?:[A-Z]{1,5}\d{2,6}|E[A-Z]{3,}|[A-Z][a-z]+(?:Error|Exception))\b/g;
const NUMBER_RE = /\b\d+(?:\.\d+)*\b/g;
const IDENT_RE = /\b(?:[a-z]+[A-Z]\w*|[A-Za-z]+_\w+|[a-z]+-[a-z]+(?:-[a-z]+)*)\b/g;
const WORD_RE = /[\p{L}][\p{L}\p{N}']*/gu;

export function keyTerms(text: string): KeyTerms {
  const strong = new Set<string>();
  const add = (re: RegExp, f: (m: string) => string[]) => {
    for (const m of text.matchAll(re)) for (const t of f(m[0])) strong.add(t);
  };
  add(PATH_RE, (p) => {
    const lower = p.toLowerCase().replace(/[.,;:]+$/, "");
    const base = lower.split("/").pop() ?? lower;
    return base === lower ? [lower] : [lower, base];
  });
  add(ERROR_CODE_RE, (c) => [c.toLowerCase()]);
  add(NUMBER_RE, (n) => [n]);
  add(IDENT_RE, (i) => [i.toLowerCase()]);
  const words = new Set<string>();
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0].toLowerCase().replace(/'s$/, "");
    if (w.length < 3 || STOP.has(w)) continue;
    words.add(stem(w));
  }
  return { source: text, strong, words };
}

/** A light stemmer: enough that "failed", "failing" and "fails" meet at "fail". */
export function stem(word: string): string {
  for (const suffix of ["ations", "ation", "ings", "ing", "edly", "ed", "es", "s", "ly"]) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}
