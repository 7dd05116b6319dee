/**
 * Word stems for the index's `stems` column, so "committed" finds `git commit` and "failing" finds "failed". Only
 * plain words are stemmed (letters, three or more); identifiers, paths and numbers keep matching exactly through
 * the `text` and `idents` columns, which hold the words as written.
 */
import { stemmer } from "stemmer";

const WORD = /^\p{L}{3,}$/u;
/** Most distinct stems kept per event: the head of a long text says what it is about. */
const MAX_STEMS = 4_000;

/** The stem of one lowercase index token, or null when it is not a plain word. */
export function stemOf(token: string): string | null {
  return WORD.test(token) ? stemmer(token) : null;
}

/**
 * Stems already computed while indexing: the same few thousand words recur in every event, and the stemmer's
 * suffix rules cost several regular expressions a word. An open-addressed table keyed by a hash of the word's
 * characters, taken while the word is read, so a word met before is found in the text where it stands, without
 * cutting it out or hashing it again. Each stem has a number, so an event's distinct stems are kept by marking
 * numbers. Both are emptied when full, so memory stays bounded.
 */
const KNOWN_MAX = 100_000;
const SLOTS = 1 << 18;
const MASK = SLOTS - 1;
let words: Array<string | undefined> = new Array(SLOTS).fill(undefined);
const stemAt = new Int32Array(SLOTS);
let count = 0;

let stemList: string[] = [];
let stemNumbers = new Map<string, number>();
/** The last call of `scanStems` that took each stem: its distinct stems are the ones marked with its number. */
let takenIn = new Int32Array(1024);
let call = 0;

function stemNumber(stem: string): number {
  let n = stemNumbers.get(stem);
  if (n === undefined) {
    n = stemList.length;
    stemList.push(stem);
    stemNumbers.set(stem, n);
    if (n >= takenIn.length) {
      const grown = new Int32Array(takenIn.length * 2);
      grown.set(takenIn);
      takenIn = grown;
    }
  }
  return n;
}

function sameAt(text: string, start: number, key: string): boolean {
  for (let j = 0; j < key.length; j++) if (text.charCodeAt(start + j) !== key.charCodeAt(j)) return false;
  return true;
}

/** `sameAt` for a word of ASCII letters with capitals: a letter's code with bit 5 set is its lowercase. */
function sameAtFolded(text: string, start: number, key: string): boolean {
  for (let j = 0; j < key.length; j++) if ((text.charCodeAt(start + j) | 32) !== key.charCodeAt(j)) return false;
  return true;
}

/** How a word stands in the text: lowercase, ASCII letters with capitals, or with letters beyond ASCII. */
export const AS_IS = 0;
export const ASCII_CAPITALS = 1;
export const WIDE = 2;

/** The number of the stem of the plain word at `text[start, end)`, whose characters hash to `hash`. */
function knownStem(text: string, start: number, end: number, hash: number, fold: number): number {
  const len = end - start;
  let at = hash & MASK;
  let word: string | undefined;
  for (;;) {
    const key = words[at];
    if (key === undefined) break;
    if (key.length === len) {
      if (fold === AS_IS) {
        if (sameAt(text, start, key)) return stemAt[at]!;
      } else if (fold === ASCII_CAPITALS) {
        if (sameAtFolded(text, start, key)) return stemAt[at]!;
      } else {
        word ??= text.slice(start, end).toLowerCase();
        if (key === word) return stemAt[at]!;
      }
    }
    at = (at + 1) & MASK;
  }
  word ??= fold === AS_IS ? text.slice(start, end) : text.slice(start, end).toLowerCase();
  const n = stemNumber(stemmer(word));
  if (count >= KNOWN_MAX) {
    words = new Array(SLOTS).fill(undefined);
    count = 0;
    at = hash & MASK;
  }
  words[at] = word;
  stemAt[at] = n;
  count++;
  return n;
}

let taken: string[] = [];
let mark = 0;

/**
 * Starts the stems of one text, for a reader that finds its words itself and gives each plain word to
 * `takeStem` in order (as `scanStems` does, and the full-text columns' single pass over an ASCII text).
 */
export function startStems(): void {
  // Between texts only, so the stems a text has taken stay marked while it is read.
  if (stemList.length >= KNOWN_MAX || call >= 0x3fffffff) {
    stemList = [];
    stemNumbers = new Map();
    takenIn = new Int32Array(1024);
    words = new Array(SLOTS).fill(undefined);
    count = 0;
    call = 0;
  }
  mark = ++call;
  taken = [];
}

/**
 * Takes the stem of the plain word (letters only, three or more) at `text[start, end)`, standing as `fold` says,
 * whose characters hash to `hash` (`hash = Math.imul(hash, 31) + (code | 32) | 0` from 0, code by code).
 * True when the text has all the stems it keeps.
 */
export function takeStem(text: string, start: number, end: number, hash: number, fold: number): boolean {
  const s = knownStem(text, start, end, hash, fold);
  if (takenIn[s] !== mark) {
    takenIn[s] = mark;
    taken.push(stemList[s]!);
  }
  return taken.length >= MAX_STEMS;
}

/** The stems taken since `startStems`, in the order first met. */
export function takenStems(): string {
  return taken.join(" ");
}

/** The distinct stems of the plain words in a text, in the tokenizer's lowercase form. */
export function stemsOf(text: string): string {
  return scanStems(text, true) ?? (scanStems(text.toLowerCase(), false) as string);
}

/** Character classes below U+0080: 1 a letter, 2 a digit or `_` (a word character that is no letter), 0 neither. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_CLASS[c] = /[A-Za-z]/.test(ch) ? 1 : /[0-9_]/.test(ch) ? 2 : 0;
}

/**
 * Beyond ASCII, the class of a code point for a reader that lowercases each word by itself rather than the
 * whole text, or -1 when that could differ: a capital sigma (its lowercase depends on the letters around it) or
 * one whose lowercase is longer or of another class (`İ` is `i` and a combining dot). By code point, as met.
 */
const casedClass = new Map<number, number>();

export function wordClassBeyondAscii(cp: number): number {
  let k = casedClass.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    const lower = ch.toLowerCase();
    k = classOf(cp);
    if (cp === 0x3a3 || lower.length !== ch.length || classOf(lower.codePointAt(0)!) !== k) k = -1;
    casedClass.set(cp, k);
  }
  return k;
}

/** The same classes beyond ASCII (`\p{L}` a letter, `\p{N}` a word character), by code point, as met. */
const wideClass = new Map<number, number>();

function classOf(cp: number): number {
  let k = wideClass.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = /\p{L}/u.test(ch) ? 1 : /\p{N}/u.test(ch) ? 2 : 0;
    wideClass.set(cp, k);
  }
  return k;
}

/**
 * The tokenizer's words (runs of `[\p{L}\p{N}_]`) found by their character codes, and only a plain word (three
 * letters or more) cut out and looked up. `asIs` reads a text that may hold capitals but must be ASCII only:
 * null when it is not, so that the caller lowercases the whole text first (Unicode case mapping can depend on
 * a letter's neighbours) and reads it again.
 */
function scanStems(text: string, asIs: boolean): string | null {
  startStems();
  const n = text.length;
  let i = 0;
  while (i < n) {
    let k = classAt(text, i, asIs);
    if (k < 0) return null;
    if (k === 0) {
      i += classWidth;
      continue;
    }
    const start = i;
    let plain = true;
    let upper = false;
    let letters = 0;
    let hash = 0;
    while (true) {
      const c = text.charCodeAt(i);
      if (k === 2) plain = false;
      else {
        letters++;
        if (c < 97) upper = true;
      }
      hash = (Math.imul(hash, 31) + (c | 32)) | 0;
      i += classWidth;
      if (i >= n) break;
      k = classAt(text, i, asIs);
      if (k < 0) return null;
      if (k === 0) break;
    }
    if (plain && letters >= 3 && takeStem(text, start, i, hash, upper && asIs ? ASCII_CAPITALS : AS_IS)) break;
  }
  return takenStems();
}

/** How many UTF-16 units the character `classAt` last read takes (2 for one beyond the BMP). */
let classWidth = 1;

/** The word class of the character at `i` (0 none, 1 letter, 2 digit or `_`), or -1 beyond ASCII when `asIs`. */
function classAt(text: string, i: number, asIs: boolean): number {
  const c = text.charCodeAt(i);
  classWidth = 1;
  if (c < 128) return ASCII_CLASS[c]!;
  if (asIs) return -1;
  const cp = text.codePointAt(i)!;
  if (cp > 0xffff) classWidth = 2;
  return classOf(cp);
}
