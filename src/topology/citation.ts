/**
 * How cairn cites an event: `[e:<event id>]`, or `[e:<id>,<id>]` for several. Briefs, search answers, MCP tools,
 * pi's recall tools and exports all write citations with `cite` and read them back with `citedIds`, and every
 * place that accepts an event id accepts a citation as written (`stripCitation`).
 */

/** `[e:a]`, `[e:a,b]` (duplicates dropped, order kept), or "" for no ids. */
export function cite(ids: string | readonly string[]): string {
  const unique = [...new Set(typeof ids === "string" ? [ids] : ids)];
  return unique.length === 0 ? "" : `[e:${unique.join(",")}]`;
}

const CITE_RE = /\[e:([0-9A-Za-z:_-]+(?:,[0-9A-Za-z:_-]+)*)\]/g;

/** Every id cited in a text, in order of first appearance. */
export function citedIds(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(CITE_RE)) for (const id of m[1]!.split(",")) out.add(id);
  return [...out];
}

/** An id as someone pasted it: `[e:ID]`, `e:ID` or `ID`, surrounding space ignored. */
export function stripCitation(ref: string): string {
  return ref
    .trim()
    .replace(/^\[?e:/, "")
    .replace(/\]$/, "");
}

/** The text without its citation marks (for a person, who gets the citations beside it). */
export function withoutCitations(text: string): string {
  return text.replace(/ ?\[e:[0-9A-Za-z:_-]+(?:,[0-9A-Za-z:_-]+)*\]/g, "");
}
