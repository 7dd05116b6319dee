/**
 * Reads a transcript file from a byte offset in bounded chunks and feeds complete lines to the resumable parser.
 * Memory stays bounded by the chunk size plus what is kept of the longest line. A line longer than a chunk is fed
 * to a `LineClipper` as it is read, through the same read buffer, so a string of hundreds of MB in it is never
 * held: only its head and tail are (readers/long-strings.ts). A line whose kept bytes pass `maxLineBytes` is
 * skipped and reported, never buffered without limit.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { splitLines } from "../readers/lines.ts";
import { type DecodedLine, LineClipper } from "../readers/long-strings.ts";
import type { TopologyBatch } from "../topology/normalizer-state.ts";
import {
  parseTranscript,
  startTranscript,
  type TranscriptState,
  transcriptEventFolder,
} from "../topology/transcript.ts";
import type { Problem } from "../topology/types.ts";
import { readContextFile } from "./context-files.ts";
import { isSqliteHeader, readDatabase } from "./read-database.ts";
import { readEventFolder } from "./read-event-folder.ts";
import type { ReadChunk, ReadFileResult, ReadPosition } from "./read-types.ts";

export type { ReadChunk, ReadFileResult, ReadPosition } from "./read-types.ts";

export interface ReadFileOptions {
  /** Byte offset to start from (the end of the last complete line read before). */
  offset?: number;
  /** Number of the line at `offset`. */
  line?: number;
  /** Saved state for `offset`; null starts the file from scratch (and detects its format). */
  state?: TranscriptState | null;
  /**
   * Whether a last line without a newline is read when it is complete JSON. The indexer leaves it (a writer may be
   * mid-line); `inspect` takes it.
   */
  takeUnterminated?: boolean;
  chunkBytes?: number;
  maxLineBytes?: number;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;
const DEFAULT_MAX_LINE = 256 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

/** Reads the file to its end, calling `onBatch` per chunk. */
export function readTranscriptFile(
  path: string,
  opts: ReadFileOptions & { onBatch(batch: TopologyBatch, problems: Problem[], at: ReadPosition): void },
): ReadFileResult {
  const chunks = readTranscriptChunks(path, opts);
  for (;;) {
    const next = chunks.next();
    if (next.done) return next.value;
    opts.onBatch(next.value.batch, next.value.problems, next.value.at);
  }
}

/**
 * The same reading as a generator: the caller decides between chunks whether to go on (so a long run can stop at
 * a chunk boundary, with every yielded chunk's position a consistent place to resume from).
 */
export function* readTranscriptChunks(path: string, opts: ReadFileOptions): Generator<ReadChunk, ReadFileResult> {
  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK;
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE;
  let offset = opts.offset ?? 0;
  let line = opts.line ?? 1;
  let state = opts.state ?? null;
  let bytesRead = 0;
  const fd = openSync(path, "r");
  try {
    // The unconsumed start of a line, held while it is short. A line longer than a chunk goes to the clipper
    // chunk by chunk and is decoded from what it kept once it ends.
    let carry: Buffer = EMPTY;
    let clip: LineClipper | null = null;
    let readPos = offset;
    let skipping = false;
    const size = fstatSync(fd).size;
    // A database is told by its first bytes, before a chunk of it is read for nothing (its rows come by query).
    if (state === null && offset === 0 && size >= 16) {
      const head = Buffer.allocUnsafe(16);
      if (readSync(fd, head, 0, 16, 0) === 16 && isSqliteHeader(head)) return yield* readDatabase(path, size);
    }
    // One read buffer for the whole file: lines leave it as strings, and a carry is copied out of it.
    let scratch: Buffer = EMPTY;
    for (;;) {
      // Size reads to what is left (most transcripts are far smaller than a chunk): a big buffer per small file
      // is external memory the garbage collector has to chase. One byte more than what is left shows EOF; past
      // the size seen at the start (a file still being written), whole chunks again.
      const left = size - readPos;
      const want = left >= 0 ? Math.max(1, Math.min(chunkBytes, left + 1)) : chunkBytes;
      if (scratch.length < want) scratch = Buffer.allocUnsafe(want);
      const n = readSync(fd, scratch, 0, want, readPos);
      readPos += n;
      bytesRead += n;
      const eof = n < want;
      const fresh = scratch.subarray(0, n);
      let buf: Buffer;
      // The line longer than a chunk that ended in this chunk, decoded; `buf` is what follows it.
      let longLine: (DecodedLine & { bytes: number }) | null = null;
      if (skipping) {
        // Inside an over-long line: drop bytes up to its end.
        const nl = fresh.indexOf(10);
        if (nl === -1) {
          offset += n;
          if (eof) break;
          continue;
        }
        offset += nl + 1;
        line++;
        buf = fresh.subarray(nl + 1);
        skipping = false;
      } else if (clip !== null || (carry.length > 0 && !eof && fresh.indexOf(10) === -1)) {
        if (clip === null) {
          // A line longer than a chunk starts: from here on it goes through the clipper.
          clip = new LineClipper(line);
          clip.push(carry);
          carry = EMPTY;
        }
        const nl = fresh.indexOf(10);
        clip.push(nl === -1 ? fresh : fresh.subarray(0, nl));
        if (nl === -1) {
          if (clip.keptBytes > maxLine) {
            yield tooLong(fd, path, offset, line, maxLine, state);
            offset += clip.bytes;
            clip = null;
            skipping = true;
            if (eof) break;
            continue;
          }
          if (!eof) continue;
          // A half-written last line waits for its writer.
          if (!opts.takeUnterminated) return { state, offset, line, pendingBytes: clip.bytes, bytesRead };
        }
        longLine = { ...clip.finish(), bytes: clip.bytes + (nl === -1 ? 0 : 1) };
        clip = null;
        buf = nl === -1 ? EMPTY : fresh.subarray(nl + 1);
      } else buf = carry.length > 0 ? Buffer.concat([carry, fresh]) : fresh;
      carry = EMPTY;
      if (state === null) {
        if (longLine === null && !eof && buf.indexOf(10) === -1) {
          // The first line is longer than a chunk: its format shows once it is whole.
          carry = Buffer.from(buf);
          continue;
        }
        state = detect(path, buf, longLine?.text);
        if (state === null) return { state: null, offset, line, pendingBytes: buf.length, bytesRead };
        const folder = transcriptEventFolder(state, path);
        if (folder !== null) return yield* readEventFolder(path, folder, state);
        // A file read to its end from its start is in hand already: it is not read a second time.
        if (state.wholeFile)
          return yield* readWhole(fd, path, state, eof && longLine === null && offset === 0 ? buf : null);
      }
      const first = longLine ? line + 1 : line;
      const split = splitLines(buf, first, eof && (opts.takeUnterminated ?? false));
      const badLines = isUtf8(buf.subarray(0, split.consumed))
        ? []
        : notUtf8(path, buf.subarray(0, split.consumed), first);
      if (longLine) {
        split.lines.unshift({ text: longLine.text, line });
        if (!longLine.utf8) badLines.unshift(utf8Problem(path, line, longLine.text));
        offset += longLine.bytes;
      }
      offset += split.consumed;
      line = split.nextLine;
      carry = Buffer.from(buf.subarray(split.consumed));
      buf = EMPTY;
      if (split.lines.length > 0) {
        const parsed = parseTranscript(split.lines, state);
        split.lines.length = 0;
        state = parsed.state;
        if (badLines.length > 0) {
          // One problem per line: a line the reader could not use is already reported.
          const reported = new Set(parsed.problems.map((p) => p.source_line));
          parsed.problems.push(...badLines.filter((p) => !reported.has(p.source_line)));
        }
        yield { batch: parsed.batch, problems: parsed.problems, at: { offset, line, state } };
      }
      if (carry.length > maxLine) {
        yield tooLong(fd, path, offset, line, maxLine, state);
        offset += carry.length;
        carry = EMPTY;
        skipping = true;
      }
      if (eof) return { state, offset, line, pendingBytes: carry.length, bytesRead };
    }
    return { state, offset, line, pendingBytes: 0, bytesRead };
  } finally {
    closeSync(fd);
  }
}

/** The first lines tell the format; decode only those (at most 64 KiB), not a whole chunk per file. */
function detect(path: string, buf: Buffer, longFirst?: string): TranscriptState | null {
  if (longFirst !== undefined) return startTranscript(path, [longFirst.slice(0, 64 * 1024)], readContextFile);
  let end = 0;
  for (let n = 0; n < 8 && end < buf.length; n++) {
    const nl = buf.indexOf(10, end);
    end = nl === -1 ? buf.length : nl + 1;
  }
  const head = buf
    .subarray(0, Math.min(end, 64 * 1024))
    .toString("utf8")
    .split("\n")
    .slice(0, 8);
  return startTranscript(path, head, readContextFile);
}

function tooLong(
  fd: number,
  path: string,
  offset: number,
  line: number,
  maxLine: number,
  state: TranscriptState | null,
): ReadChunk {
  const head = Buffer.alloc(160);
  const n = readSync(fd, head, 0, head.length, offset);
  return {
    batch: emptyBatch(),
    problems: [
      {
        source_file: path,
        source_line: line,
        reason: `line longer than ${Math.round(maxLine / 1048576)} MiB; skipped`,
        excerpt: head.subarray(0, n).toString("utf8"),
      },
    ],
    at: { offset, line, state },
  };
}

/**
 * Decoding replaces bytes that are not UTF-8 with U+FFFD; the line is still read, but each such line is reported
 * with its file and number.
 */
function notUtf8(path: string, bytes: Buffer, firstLine: number): Problem[] {
  const out: Problem[] = [];
  let start = 0;
  let line = firstLine;
  while (start < bytes.length) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    const text = bytes.subarray(start, end);
    if (!isUtf8(text)) out.push(utf8Problem(path, line, text.subarray(0, 160).toString("utf8")));
    start = end + 1;
    line++;
  }
  return out;
}

function utf8Problem(path: string, line: number, text: string): Problem {
  return {
    source_file: path,
    source_line: line,
    reason: "invalid UTF-8; the bad bytes were read as U+FFFD",
    excerpt: text.slice(0, 160),
  };
}

/** A file that is one JSON document: all of it, as one line, whatever ends it. */
function* readWhole(
  fd: number,
  path: string,
  state: TranscriptState,
  whole: Buffer | null,
): Generator<ReadChunk, ReadFileResult> {
  let buf = whole;
  let n = whole?.length ?? 0;
  if (buf === null) {
    const size = fstatSync(fd).size;
    buf = Buffer.allocUnsafe(size);
    n = size > 0 ? readSync(fd, buf, 0, size, 0) : 0;
  }
  const text = buf.toString("utf8", 0, n);
  // Counted in the bytes: splitting a pretty-printed document into its lines cost more than reading it.
  let lines = 1;
  for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
  const parsed = parseTranscript([{ text, line: 1 }], state);
  const at = { offset: n, line: lines + 1, state: parsed.state };
  yield { batch: parsed.batch, problems: parsed.problems.map((p) => ({ ...p, source_file: path })), at };
  return { state: parsed.state, offset: n, line: at.line, pendingBytes: 0, bytesRead: n };
}

export function emptyBatch(): TopologyBatch {
  return { sessions: [], events: [], edges: [], entities: [], usage: [] };
}
