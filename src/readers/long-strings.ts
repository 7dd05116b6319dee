/**
 * Very long strings inside a transcript line (a build log or a file dump a tool returned, tens or hundreds of MB)
 * are kept in the index as their head and tail with a marker between. A line is fed to a `LineClipper` chunk by
 * chunk as it is read, so only the bytes kept are ever held, turned into a string or parsed. Nothing downstream
 * needs the middle (search reads the ends of a long text, briefs and the web app show head and tail), and reading
 * the whole line into memory, decoding, parsing and storing it cost several times a JSON.parse of the line and as
 * many copies of it in memory (issue 12). The whole text stays in the transcript: the marker names the line, and
 * the event's source file and line point at it.
 */
import { isUtf8 } from "node:buffer";

/** A string longer than this many bytes (as written, escapes included) is clipped. */
export const CLIP_STRING_BYTES = 4 * 1024 * 1024;
/** How many bytes of its head and of its tail a clipped string keeps. */
export const KEEP_BYTES = 512 * 1024;
/** A cut moves to the nearest escaped newline within this many bytes, so a log is cut between its lines. */
const ALIGN_BYTES = 4096;
const SPAN = KEEP_BYTES + ALIGN_BYTES;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSING_QUOTE = Buffer.from('"');

export interface DecodedLine {
  text: string;
  /** Whether every byte decoded was UTF-8 (a clipped middle is never decoded, nor checked). */
  utf8: boolean;
}

/**
 * One JSON line pushed in pieces (each may be reused by the caller once pushed): what is outside strings and every
 * string up to CLIP_STRING_BYTES is kept as it is; a longer string keeps its first and last bytes only.
 */
export class LineClipper {
  /** Bytes pushed so far. */
  bytes = 0;
  /** Bytes held so far (what the line will be decoded from). */
  keptBytes = 0;
  private readonly line: number;
  private readonly out: Buffer[] = [];
  private utf8 = true;
  private inString = false;
  /** Backslashes that end the current string's contents pushed so far: they may escape a quote in the next piece. */
  private slashes = 0;
  /** The current string's contents while it is short enough to keep whole. */
  private str: Buffer[] = [];
  private strBytes = 0;
  /** Once the string is too long: its first SPAN bytes and its last SPAN bytes seen so far. */
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);

  constructor(line: number) {
    this.line = line;
  }

  push(piece: Buffer): void {
    this.bytes += piece.length;
    let pos = 0;
    while (pos < piece.length) {
      if (!this.inString) {
        // Outside strings, a JSON text has quotes only where a string starts.
        const q = piece.indexOf(QUOTE, pos);
        const to = q === -1 ? piece.length : q + 1;
        this.keep(piece.subarray(pos, to));
        if (q === -1) return;
        this.inString = true;
        this.slashes = 0;
        pos = to;
        continue;
      }
      const q = this.closingQuote(piece, pos);
      const contents = piece.subarray(pos, q === -1 ? piece.length : q);
      this.addContents(contents);
      if (q === -1) {
        const run = trailingSlashes(contents);
        this.slashes = run === contents.length ? this.slashes + run : run;
        return;
      }
      this.endString();
      pos = q + 1;
    }
  }

  finish(): DecodedLine {
    // An unterminated string is left as it came, for the JSON parser to report.
    if (this.inString) {
      if (this.head) this.keep(Buffer.concat([this.head, this.tail]));
      else for (const s of this.str) this.keep(s);
    }
    const all = Buffer.concat(this.out);
    return { text: all.toString("utf8"), utf8: this.utf8 && isUtf8(all) };
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.out.push(Buffer.from(bytes));
    this.keptBytes += bytes.length;
  }

  /** The quote that ends the current string in `piece` from `from`: one not escaped by an odd run of backslashes. */
  private closingQuote(piece: Buffer, from: number): number {
    for (let q = piece.indexOf(QUOTE, from); q !== -1; q = piece.indexOf(QUOTE, q + 1)) {
      let run = 0;
      for (let i = q - 1; i >= from && piece[i] === BACKSLASH; i--) run++;
      if (run === q - from) run += this.slashes;
      if (run % 2 === 0) return q;
    }
    return -1;
  }

  private addContents(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.head === null && this.strBytes + bytes.length <= CLIP_STRING_BYTES) {
      this.str.push(Buffer.from(bytes));
      this.strBytes += bytes.length;
      this.keptBytes += bytes.length;
      return;
    }
    if (this.head === null) {
      // The string just became too long: from now on only its ends are held.
      const sofar = Buffer.concat([...this.str, bytes]);
      this.head = Buffer.from(sofar.subarray(0, SPAN));
      this.tail = Buffer.from(sofar.subarray(-SPAN));
      this.keptBytes -= this.strBytes;
      this.str = [];
    } else {
      const last = bytes.length >= SPAN ? bytes.subarray(-SPAN) : bytes;
      this.tail = Buffer.from(Buffer.concat([this.tail, last]).subarray(-SPAN));
    }
    this.strBytes += bytes.length;
  }

  private endString(): void {
    if (this.head === null) {
      for (const s of this.str) this.out.push(s);
      this.keep(CLOSING_QUOTE);
    } else {
      const cut = clipped(this.head, this.tail, this.strBytes, this.line);
      if (!cut.utf8) this.utf8 = false;
      // The opening quote is kept already; the clipped text brings its own closing one.
      this.keep(Buffer.from(JSON.stringify(cut.text).slice(1)));
    }
    this.inString = false;
    this.str = [];
    this.strBytes = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
  }
}

function trailingSlashes(b: Buffer): number {
  let run = 0;
  for (let i = b.length - 1; i >= 0 && b[i] === BACKSLASH; i--) run++;
  return run;
}

/** A long string's head and tail (raw JSON string bytes), decoded, with a marker saying what is left out. */
function clipped(headBytes: Buffer, tailBytes: Buffer, total: number, line: number): DecodedLine {
  let headEnd = KEEP_BYTES;
  const nlBefore = headBytes.lastIndexOf("\\n", headEnd);
  if (nlBefore > headEnd - ALIGN_BYTES) headEnd = nlBefore;
  let tailStart = tailBytes.length - KEEP_BYTES;
  const nlAfter = tailBytes.indexOf("\\n", tailStart);
  if (nlAfter !== -1 && nlAfter < tailStart + ALIGN_BYTES) tailStart = nlAfter + 2;
  // Never cut inside a UTF-8 character.
  while (headEnd > 0 && (headBytes[headEnd]! & 0xc0) === 0x80) headEnd--;
  while (tailStart < tailBytes.length && (tailBytes[tailStart]! & 0xc0) === 0x80) tailStart++;
  const head = decodeHead(headBytes, headEnd);
  const tail = decodeTail(tailBytes, tailStart);
  const left = total - head.bytes - (tailBytes.length - tail.bytes);
  const mib = (left / (1024 * 1024)).toFixed(1);
  return {
    text: `${head.text}\n\n[… ${mib} MiB of this text are left out of cairn's index; the transcript has it whole, line ${line}: cairn show <id> --source …]\n\n${tail.text}`,
    utf8: isUtf8(headBytes.subarray(0, head.bytes)) && isUtf8(tailBytes.subarray(tail.bytes)),
  };
}

/** Decodes string contents [0, end), backing the end off an escape sequence it would cut in two. */
function decodeHead(b: Buffer, end: number): { text: string; bytes: number } {
  for (let e = end; e > 0 && e > end - 8; e--) {
    const text = tryString(b, 0, e);
    if (text !== null) return { text, bytes: e };
  }
  return { text: "", bytes: 0 };
}

/** Decodes string contents [start, length), moving the start past an escape sequence it would cut in two. */
function decodeTail(b: Buffer, start: number): { text: string; bytes: number } {
  for (let s = start; s < b.length && s < start + 8; s++) {
    const text = tryString(b, s, b.length);
    if (text !== null) return { text, bytes: s };
  }
  return { text: "", bytes: b.length };
}

function tryString(b: Buffer, start: number, end: number): string | null {
  try {
    const v: unknown = JSON.parse(`"${b.toString("utf8", start, end)}"`);
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}
