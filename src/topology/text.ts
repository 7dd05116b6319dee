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
