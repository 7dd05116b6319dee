/**
 * highlight.js with the languages agents' sessions mostly show, registered by hand so the bundle does not
 * carry all 190. Output is hljs's own escaped HTML: source text never reaches the DOM as markup.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Past this, highlighting costs more than it helps; the text is shown plain. */
const MAX_CHARS = 60_000;

/** Escaped, highlighted HTML for `code`, or null when the language is unknown or the text too long. */
export function highlight(code: string, language: string | undefined): string | null {
  if (!language || code.length > MAX_CHARS) return null;
  const name = hljs.getLanguage(language) ? language : undefined;
  if (!name) return null;
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}
