/**
 * Reads a transcript file from a byte offset in bounded chunks and feeds complete lines to the resumable parser.
 * Memory stays bounded by the chunk size plus the longest line; a line longer than `maxLineBytes` is skipped and
 * reported, never buffered without limit.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { splitLines } from "../readers/lines.ts";
import type { TopologyBatch } from "../topology/normalize.ts";
import { parseTranscript, startTranscript, type TranscriptState } from "../topology/transcript.ts";
import type { Problem } from "../topology/types.ts";

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
  /** Called per chunk with what it yielded and where reading stands after it (offset, line, parser state). */
  onBatch(batch: TopologyBatch, problems: Problem[], at: ReadPosition): void;
}

export interface ReadPosition {
  offset: number;
  line: number;
  state: TranscriptState | null;
}

export interface ReadFileResult {
  /** Null when the file's format could not be recognised. */
  state: TranscriptState | null;
  /** Offset just after the last line consumed. */
  offset: number;
  line: number;
  /** Bytes after `offset` that were not consumed: a half-written line, or an unterminated invalid one. */
  pendingBytes: number;
  bytesRead: number;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;
const DEFAULT_MAX_LINE = 256 * 1024 * 1024;

export function readTranscriptFile(path: string, opts: ReadFileOptions): ReadFileResult {
  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK;
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE;
  let offset = opts.offset ?? 0;
  let line = opts.line ?? 1;
  let state = opts.state ?? null;
  let bytesRead = 0;
  const fd = openSync(path, "r");
  try {
    let carry: Buffer = Buffer.alloc(0);
    let readPos = offset;
    let skipping = false;
    const size = fstatSync(fd).size;
    for (;;) {
      // Size reads to what is left (most transcripts are far smaller than a chunk): a big buffer per small file
      // is external memory the garbage collector has to chase. One byte more than what is left shows EOF.
      const want = Math.max(1, Math.min(chunkBytes, size - readPos + 1));
      const chunk = Buffer.allocUnsafe(want);
      const n = readSync(fd, chunk, 0, want, readPos);
      readPos += n;
      bytesRead += n;
      const eof = n < want;
      let buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      if (skipping) {
        // Inside an over-long line: drop bytes up to its end.
        const nl = buf.indexOf(10);
        if (nl === -1) {
          offset += buf.length;
          carry = Buffer.alloc(0);
          if (eof) break;
          continue;
        }
        offset += nl + 1;
        line++;
        buf = buf.subarray(nl + 1);
        skipping = false;
      }
      if (state === null) {
        // The first lines tell the format; decode only those (at most 64 KiB), not a whole chunk per file.
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
        state = startTranscript(path, head);
        if (state === null) return { state: null, offset, line, pendingBytes: buf.length, bytesRead };
        if (state.wholeFile) return readWhole(fd, path, state, opts);
      }
      const split = splitLines(buf, line, eof && (opts.takeUnterminated ?? false));
      let parsed: ReturnType<typeof parseTranscript> | undefined;
      if (split.lines.length > 0) {
        parsed = parseTranscript(split.lines, state);
        state = parsed.state;
      }
      offset += split.consumed;
      line = split.nextLine;
      if (split.lines.length > 0) opts.onBatch(parsed!.batch, parsed!.problems, { offset, line, state });
      carry = buf.subarray(split.consumed);
      if (carry.length > maxLine) {
        offset += carry.length;
        opts.onBatch(
          emptyBatch(),
          [
            {
              source_file: path,
              source_line: line,
              reason: `line longer than ${Math.round(maxLine / 1048576)} MiB; skipped`,
              excerpt: carry.subarray(0, 160).toString("utf8"),
            },
          ],
          { offset, line, state },
        );
        carry = Buffer.alloc(0);
        skipping = true;
      }
      if (eof) return { state, offset, line, pendingBytes: carry.length, bytesRead };
      // Copy the carry out of the chunk so the next allocation can release it.
      carry = Buffer.from(carry);
    }
    return { state, offset, line, pendingBytes: 0, bytesRead };
  } finally {
    closeSync(fd);
  }
}

/** A file that is one JSON document: all of it, as one line, whatever ends it. */
function readWhole(fd: number, path: string, state: TranscriptState, opts: ReadFileOptions): ReadFileResult {
  const size = fstatSync(fd).size;
  const buf = Buffer.allocUnsafe(size);
  const n = size > 0 ? readSync(fd, buf, 0, size, 0) : 0;
  const text = buf.toString("utf8", 0, n);
  const lines = text.split("\n").length;
  const parsed = parseTranscript([{ text, line: 1 }], state);
  const at = { offset: n, line: lines + 1, state: parsed.state };
  opts.onBatch(
    parsed.batch,
    parsed.problems.map((p) => ({ ...p, source_file: path })),
    at,
  );
  return { state: parsed.state, offset: n, line: at.line, pendingBytes: 0, bytesRead: n };
}

export function emptyBatch(): TopologyBatch {
  return { sessions: [], events: [], edges: [], entities: [] };
}
