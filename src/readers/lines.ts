import type { SourceLine } from "./types.ts";

export interface SplitResult {
  lines: SourceLine[];
  /** Bytes of `buf` that were consumed (complete lines, including their newline). */
  consumed: number;
  /** Number of the next line after the consumed ones. */
  nextLine: number;
  /** Bytes left over after the last newline: a line still being written, or the unterminated last line. */
  rest: number;
}

/**
 * Splits a buffer of JSONL into lines. A final line without a newline is taken only when `final` is set and it is
 * a complete JSON value, so a half-written line waits for its writer while a file that merely lacks a trailing
 * newline is still read whole. `\r\n` endings and a UTF-8 byte-order mark are tolerated.
 */
export function splitLines(buf: Buffer, firstLine: number, final: boolean): SplitResult {
  const lines: SourceLine[] = [];
  let start = 0;
  let line = firstLine;
  if (firstLine === 1 && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  for (;;) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) break;
    let end = nl;
    if (end > start && buf[end - 1] === 13) end--;
    lines.push({ text: buf.toString("utf8", start, end), line });
    line++;
    start = nl + 1;
  }
  if (final && start < buf.length) {
    const text = buf.toString("utf8", start, buf.length);
    if (isCompleteJson(text)) {
      lines.push({ text, line });
      line++;
      start = buf.length;
    }
  }
  return { lines, consumed: start, nextLine: line, rest: buf.length - start };
}

function isCompleteJson(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "") return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** Splits a whole string (e.g. a test fixture) into numbered lines. */
export function linesOf(text: string, firstLine = 1): SourceLine[] {
  const out: SourceLine[] = [];
  const parts = text.split("\n");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  let line = firstLine;
  for (const part of parts) {
    out.push({ text: part.endsWith("\r") ? part.slice(0, -1) : part, line });
    line++;
  }
  return out;
}
