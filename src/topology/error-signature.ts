/**
 * Error signatures: the first telling error line of a failure, normalised so that repeats of the same failure
 * group together across runs and sessions (research/resume-method §4.3).
 */
import { stripAnsi } from "./text.ts";

export interface ErrorSignature {
  /** Normalised signature: paths reduced to base names, numbers to N, hex to H, clipped to 140 characters. */
  signature: string;
  /** The raw line it came from. */
  line: string;
  /** A machine error code in the line (`TS2304`, `E0308`, `ENOENT`, …), when there is one. */
  code: string | null;
}

const ERROR_RE =
  /error|Error|ERROR|FAIL|failed|Exception|Traceback|panic:|Cannot find|is not assignable|not found|✗|×|denied|fatal:|rejected|conflict/;
const NOT_ERROR_RE = /\b0 errors?\b|\bno errors\b|\b0 failed\b|\bwithout errors\b/i;
const CODE_RE = /\b(TS\d{4,5}|E\d{4}|[A-Z]{2,}\d{3,5}|E[A-Z]{3,}[A-Z]*)\b/;

/** Lines that name the failure less well than a line that follows them. */
const WEAK_RE =
  /^(Traceback \(most recent call last\):|Error: Command failed|npm ERR! code|error: script|Exit code:|FAIL$|×$)|exit status \d+|(Command|Process) exited with code \d+/;
/** Harness markup around tool errors, e.g. Claude Code's `<tool_use_error>`. */
const TAG_RE = /<\/?[a-z_]+>/g;

function lines(output: string): string[] {
  const text = stripAnsi(output.length > 200_000 ? output.slice(0, 100_000) + output.slice(-100_000) : output);
  // Progress output rewrites its line with a carriage return; each rewrite is a line of its own here.
  return text.split(/\r?\n|\r/).map((l) => l.replace(TAG_RE, "").trim());
}

export function errorSignature(output: string): ErrorSignature | null {
  let fallback: string | null = null;
  for (const line of lines(output)) {
    if (line.length === 0 || line.length >= 300) continue;
    if (!ERROR_RE.test(line) || NOT_ERROR_RE.test(line)) continue;
    if (letterShare(line) < 0.6) continue;
    if (WEAK_RE.test(line)) {
      fallback ??= line;
      continue;
    }
    return make(line);
  }
  return fallback ? make(fallback) : null;
}

/** The first distinct error lines of an output (the signature's line first), for the error event's text. */
export function topErrorLines(output: string, max = 5): string[] {
  const out: string[] = [];
  for (const line of lines(output)) {
    if (
      line.length === 0 ||
      line.length >= 300 ||
      !ERROR_RE.test(line) ||
      NOT_ERROR_RE.test(line) ||
      WEAK_RE.test(line)
    )
      continue;
    if (letterShare(line) < 0.6 || out.includes(line)) continue;
    out.push(line);
    if (out.length >= max) break;
  }
  return out;
}

/** A signature for a failure whose output has no recognisable error line: its first line that reads as text. */
export function fallbackSignature(output: string): ErrorSignature | null {
  const all = lines(output).filter((l) => l.length > 0);
  const line = all.find((l) => l.length < 300 && letterShare(l) >= 0.6) ?? all[0];
  return line ? make(line.slice(0, 300)) : null;
}

function make(line: string): ErrorSignature {
  return { signature: normalizeSignature(line), line, code: CODE_RE.exec(line)?.[1] ?? null };
}

export function normalizeSignature(line: string): string {
  let s = stripAnsi(line);
  // Absolute and relative paths with a directory part keep only their base name.
  s = s.replace(/(?:[A-Za-z]:)?(?:[\w.@~+-]*[/\\])+([\w.@+-]+)/g, "$1");
  s = s.replace(/\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,}\b/g, "H");
  s = s.replace(/\d+/g, "N");
  s = s.replace(/\s+/g, " ").trim();
  return s.length > 140 ? s.slice(0, 140) : s;
}

function letterShare(line: string): number {
  const letters = line.match(/[\p{L} ]/gu)?.length ?? 0;
  return letters / [...line].length;
}
