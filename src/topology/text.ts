/** Text helpers shared by the derivations. */

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ANSI, "") : text;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Estimated tokens of a text (about four characters per token for English and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function firstLine(text: string): string {
  const trimmed = text.trimStart();
  const nl = trimmed.indexOf("\n");
  return (nl === -1 ? trimmed : trimmed.slice(0, nl)).trim();
}

const TAG = /<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>/g;

/**
 * The first line of a summary that says something: lines that are only markup (`<summary>`, `<analysis>`) are
 * passed over and tags removed, so a compaction summary is named by its words, not by its wrapper.
 */
export function headline(text: string): string {
  for (const line of text.split("\n")) {
    const words = line.replace(TAG, " ").replace(/\s+/g, " ").trim();
    if (words !== "") return words;
  }
  return "";
}
