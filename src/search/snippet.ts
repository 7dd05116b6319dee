/**
 * Snippets: a window of the event's text around the first matching word, with matches marked «like this».
 * Computed here rather than by FTS5 because the index is contentless and holds only a bounded part of the text.
 */

const WINDOW = 220;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function snippetOf(text: string, words: readonly string[], width = WINDOW): string {
  const unique = [...new Set(words.filter((w) => w.length > 0))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return clipAround(flatten(text.slice(0, width * 2)).trim(), 0, width);
  // Whole tokens, and the word parts of identifiers (so "transcript" finds parseTranscript); short words only
  // whole, or "in" would mark half the text.
  const re = new RegExp(
    unique.map((w) => (w.length >= 4 ? escapeRe(w) : `(?<![\\p{L}\\p{N}])${escapeRe(w)}(?![\\p{L}\\p{N}])`)).join("|"),
    "giu",
  );
  // Only the neighbourhood of the first match is flattened: tool output can run to megabytes.
  const first = re.exec(text);
  const from = first ? Math.max(0, first.index - width) : 0;
  const to = Math.min(text.length, (first ? first.index : 0) + width * 2);
  let near = flatten(text.slice(from, to));
  if (from === 0) near = near.trimStart();
  if (to === text.length) near = near.trimEnd();
  re.lastIndex = 0;
  const at = first ? Math.max(0, near.search(re)) : 0;
  let window = clipAround(near, at, width);
  if (from > 0 && !window.startsWith("…")) window = `…${window}`;
  if (to < text.length && !window.endsWith("…")) window = `${window}…`;
  re.lastIndex = 0;
  return window.replace(re, (m) => `«${m}»`);
}

function flatten(s: string): string {
  return s.replace(/\s+/g, " ");
}

function clipAround(text: string, at: number, width: number): string {
  if (text.length <= width) return text;
  const start = Math.max(0, Math.min(at - Math.floor(width / 3), text.length - width));
  const end = Math.min(text.length, start + width);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}
