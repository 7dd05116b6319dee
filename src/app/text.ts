/** Bounding text for answers: one line, at most so many characters, never splitting a surrogate pair. */

/** The first `max` characters of a text, never splitting a surrogate pair, and how many were cut. */
export function clip(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: text.slice(0, end), cut: text.length - end };
}

/** One line of at most `max` characters, with an ellipsis when shortened. */
export function oneLine(text: string | null | undefined, max: number): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${clip(flat, max - 1).text}…`;
}
