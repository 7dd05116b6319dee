/** Shared terminal formatting for the history commands. */
import { PROVIDER_WIDTH } from "../readers/agents.ts";
import type { CliIo } from "./io.ts";

export { noun, plural, pluralLarge } from "../common/plural.ts";

/** Whether to color: decided by `main` (--color, FORCE_COLOR, NO_COLOR, a terminal); off when not decided. */
export function color(io: CliIo): boolean {
  return io.color === true;
}

export function bold(io: CliIo, s: string): string {
  return color(io) ? `\u001b[1m${s}\u001b[22m` : s;
}

export function dim(io: CliIo, s: string): string {
  return color(io) ? `\u001b[2m${s}\u001b[22m` : s;
}

export function red(io: CliIo, s: string): string {
  return color(io) ? `\u001b[31m${s}\u001b[39m` : s;
}

export function green(io: CliIo, s: string): string {
  return color(io) ? `\u001b[32m${s}\u001b[39m` : s;
}

/** «matches» in snippets become bold on a terminal. */
export function highlight(io: CliIo, snippet: string): string {
  return color(io) ? snippet.replace(/«([^»]*)»/g, "\u001b[1;33m$1\u001b[22;39m") : snippet;
}

/** `2026-11-21T10:02:03.456Z` → `2026-11-21 10:02`. */
export function shortTime(ts: string | null): string {
  if (!ts) return "—".padEnd(16);
  return ts.replace("T", " ").slice(0, 16);
}

/** A provider's name padded to the longest one's, so that its column lines up whichever agent a row is from. */
export function providerCell(provider: string): string {
  return provider.padEnd(PROVIDER_WIDTH);
}

/** One line of at most `max` characters. */
export function oneLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
