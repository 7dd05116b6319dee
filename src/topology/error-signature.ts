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
  /error|Error|ERROR|FAIL|failed|Exception|Traceback|panic:|Cannot find|is not assignable|not found|No such file or directory|✗|×|✖|denied|fatal:|rejected|conflict|exit status [1-9]|^Command aborted$|^🥊 \S/;
const NOT_ERROR_RE = /\b0 errors?\b|\bno errors\b|\b0 failed\b|\bwithout errors\b/i;
const CODE_RE = /\b(TS\d{4,5}|E\d{4}|[A-Z]{2,}\d{3,5}|E[A-Z]{3,}[A-Z]*)\b/;

/** Lines that name the failure less well than a line that follows them. */
const WEAK_RE =
  /^(Traceback \(most recent call last\):|Error: Command failed|npm ERR! code|npm error (?:code|command|path)|error: script|Exit code:|FAIL$|×$|Command aborted$)|exit status \d+|(Command|Process) exited with code \d+/;
/**
 * Lines that are never the error, whatever words they hold: box-drawn banners (lefthook's
 * `│ 🥊 lefthook v1.12.3 hook: pre-commit │`), rules, and the Node inspector's chatter.
 */
const DRAWN_NOISE_RE = /^[\u2500-\u257f\s]*$|^[│┃║].*[│┃║]$/;
const TEXT_NOISE_RE =
  /^(?:Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger listening on ws:|For help, see: https:\/\/nodejs\.org|Error in the js-debug bootloader|npm (?:ERR!|error) (?:workspace|location) )/;
/** Box-drawing and braille-spinner characters around a line's text (`┃  biome-fix ❯`, `⠙`). */
const EDGE_RE = /^[\u2500-\u257f\u2800-\u28ff\s]+|[\u2500-\u257f\u2800-\u28ff\s]+$/g;
/** Harness markup around tool errors, e.g. Claude Code's `<tool_use_error>`. */
const TAG_RE = /<\/?[a-z_]+>/g;

function rawLines(output: string): string[] {
  const text = stripAnsi(output.length > 200_000 ? output.slice(0, 100_000) + output.slice(-100_000) : output);
  // Progress output rewrites its line with a carriage return; each rewrite is a line of its own here.
  return text.split(/\r?\n|\r/);
}

function lines(output: string): string[] {
  return rawLines(output).map(cleanLine);
}

/** An output's lines, each cleaned when first read: the error line is mostly found long before the end. */
class CleanLines {
  private readonly raw: string[];
  private readonly clean: string[] = [];
  constructor(output: string) {
    this.raw = rawLines(output);
  }
  get length(): number {
    return this.raw.length;
  }
  at(i: number): string {
    for (let j = this.clean.length; j <= i; j++) this.clean.push(cleanLine(this.raw[j]!));
    return this.clean[i]!;
  }
}

function cleanLine(raw: string): string {
  const l = (raw.includes("<") ? raw.replace(TAG_RE, "") : raw).trim();
  if (l === "") return "";
  const first = l.charCodeAt(0);
  const last = l.charCodeAt(l.length - 1);
  const drawn = (first >= 0x2500 && first <= 0x28ff) || (last >= 0x2500 && last <= 0x28ff);
  if (drawn ? DRAWN_NOISE_RE.test(l) : TEXT_NOISE_RE.test(l)) return "";
  // Only lines that start or end with drawing characters need them trimmed.
  return drawn ? l.replace(EDGE_RE, "") : l;
}

export function errorSignature(output: string): ErrorSignature | null {
  let fallback: string | null = null;
  const all = new CleanLines(output);
  for (let i = 0; i < all.length; i++) {
    const line = all.at(i);
    if (line.length === 0 || line.length >= 300) continue;
    if (!ERROR_RE.test(line) || NOT_ERROR_RE.test(line)) continue;
    if (letterShare(line) < 0.6) continue;
    if (WEAK_RE.test(line)) {
      fallback ??= line;
      continue;
    }
    return make(withItem(line, all, i));
  }
  return fallback ? make(fallback) : null;
}

/**
 * A heading that announces a list (`Unused devDependencies (1)`, `error: these files would be overwritten:`) says
 * little without its first item (`tailwindcss  package.json:94:6`), so the item is joined to it.
 */
function withItem(line: string, all: { length: number; at(i: number): string | undefined }, i: number): string {
  if (!/(\(\d+\)|:)$/.test(line)) return line;
  for (let j = i + 1; j < all.length && j < i + 4; j++) {
    const next = all.at(j)!;
    if (next === "") continue;
    // Only an item that reads as words: a diff's line numbers after "would have printed:" add nothing.
    return next.length < 200 && letterShare(next) >= 0.5 ? `${line.replace(/:$/, "")}: ${next}` : line;
  }
  return line;
}

/** The first distinct error lines of an output (the signature's line first), for the error event's text. */
export function topErrorLines(output: string, max = 5): string[] {
  const out: string[] = [];
  const all = new CleanLines(output);
  for (let i = 0; i < all.length; i++) {
    const line = all.at(i);
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

/**
 * Lines that read as text but say nothing about a failure: curl's progress-meter header, box drawing and banners
 * of repeated punctuation.
 */
const CHROME_RE = /^\s*(?:% Total\s+% Received|Dload\s+Upload)|^[\s\u2500-\u259F|+=*#~_-]*$|^\s*[\u2500-\u259F]/;

/** A signature for a failure whose output has no recognisable error line: its first line that reads as text. */
export function fallbackSignature(output: string): ErrorSignature | null {
  const all = lines(output).filter((l) => l.length > 0);
  const i = all.findIndex((l) => l.length < 300 && letterShare(l) >= 0.6 && !CHROME_RE.test(l));
  const line = i === -1 ? all[0] : withItem(all[i]!, all, i);
  return line ? make(line.slice(0, 300)) : null;
}

function make(line: string): ErrorSignature {
  return { signature: normalizeSignature(line), line, code: CODE_RE.exec(line)?.[1] ?? null };
}

/** A URL: scheme and host, then its path up to a quote, space or bracket. */
const URL = /\b([a-z][a-z+.-]*:\/\/[^\s/'"`<>()]+)(\/[^\s'"`<>()]*)?/gi;

export function normalizeSignature(line: string): string {
  let s = stripAnsi(line);
  // A URL keeps its scheme and host and the last part of its path; the path rule below would read `p:` of
  // `http:` as a drive letter and fold `http://host/org/repo.git` into `httrepo.git`.
  const urls: string[] = [];
  if (s.includes("://"))
    s = s.replace(URL, (_m, head: string, path: string | undefined) => {
      urls.push(`${head}${(path ?? "").replace(/^\/.*\/(?=[^/]+\/?$)/, "/…/")}`);
      return `\uE000${urls.length - 1}\uE000`;
    });
  // Absolute and relative paths with a directory part keep only their base name. The rule backtracks over every
  // word of a line without a separator, so such a line is not given to it.
  if (s.includes("/") || s.includes("\\")) s = s.replace(/(?:[A-Za-z]:)?(?:[\w.@~+-]*[/\\])+([\w.@+-]+)/g, "$1");
  if (urls.length > 0) s = s.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => urls[Number(i)]!);
  s = s.replace(/\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,}\b/g, "H");
  s = s.replace(/\d+/g, "N");
  // Only a run of spaces, or a tab or newline, has anything for the space rule to fold.
  s = (/\s\s|[^\S ]/.test(s) ? s.replace(/\s+/g, " ") : s).trim();
  return s.length > 140 ? s.slice(0, 140) : s;
}

const LETTER = /\p{L}/u;

/** Share of letters and spaces among the line's characters (code points); counted without building arrays. */
export function letterShare(line: string): number {
  let letters = 0;
  let chars = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    chars++;
    if (c === 32 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letters++;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < line.length) {
      // a surrogate pair is one character
      if (LETTER.test(line.slice(i, i + 2))) letters++;
      i++;
    } else if (c > 127 && LETTER.test(line[i]!)) letters++;
  }
  return chars === 0 ? 0 : letters / chars;
}
