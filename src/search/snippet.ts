/**
 * Snippets: a window of the event's text around the first matching word, with matches marked «like this».
 * Computed here rather than by FTS5 because the index is contentless and holds only a bounded part of the text.
 */

const WINDOW = 220;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function snippetOf(text: string, words: readonly string[], width = WINDOW): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const unique = [...new Set(words.filter((w) => w.length > 0))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return clipAround(flat, 0, width);
  // Whole tokens, and the word parts of identifiers (so "transcript" finds parseTranscript); short words only
  // whole, or "in" would mark half the text.
  const re = new RegExp(
    unique.map((w) => (w.length >= 4 ? escapeRe(w) : `(?<![\\p{L}\\p{N}])${escapeRe(w)}(?![\\p{L}\\p{N}])`)).join("|"),
    "giu",
  );
  const first = re.exec(flat);
  const window = clipAround(flat, first ? first.index : 0, width);
  return window.replace(re, (m) => `«${m}»`);
}

function clipAround(text: string, at: number, width: number): string {
  if (text.length <= width) return text;
  const start = Math.max(0, Math.min(at - Math.floor(width / 3), text.length - width));
  const end = Math.min(text.length, start + width);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}
