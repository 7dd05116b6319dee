/**
 * Whether a file is still the one the index read up to its saved offset. Size, mtime and inode say whether it
 * changed at all; when it grew, the bytes already read must still be there: the first 4 KiB and the 4 KiB just
 * before the offset (which end with the newline that closed the last line read). A file rewritten in place that
 * keeps its head and grows is caught by the second hash.
 */
import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import type { FileState } from "../store/types.ts";

export const CHECK_BYTES = 4096;

function hashRange(fd: number, start: number, length: number): string {
  const buf = Buffer.alloc(length);
  let n = 0;
  while (n < length) {
    const got = readSync(fd, buf, n, length - n, start + n);
    if (got === 0) break;
    n += got;
  }
  return createHash("sha1").update(buf.subarray(0, n)).digest("hex");
}

/** Hash of the first min(4 KiB, offset) bytes. */
export function headHash(fd: number, offset: number): string {
  return hashRange(fd, 0, Math.min(CHECK_BYTES, offset));
}

/** Hash of the min(4 KiB, offset) bytes that end at `offset`. */
export function tailHash(fd: number, offset: number): string {
  const length = Math.min(CHECK_BYTES, offset);
  return hashRange(fd, offset - length, length);
}

function byteBefore(fd: number, offset: number): number | null {
  if (offset === 0) return null;
  const b = Buffer.alloc(1);
  return readSync(fd, b, 0, 1, offset - 1) === 1 ? (b[0] ?? null) : null;
}

/**
 * Whether the open file `fd` (of `size` bytes) still holds what was read of it up to `prev.offset`, so that only
 * the bytes after it need reading.
 */
export function stillHolds(fd: number, size: number, prev: Pick<FileState, "offset" | "head_hash" | "tail_hash">) {
  if (size < prev.offset) return false;
  if (headHash(fd, prev.offset) !== prev.head_hash) return false;
  // Positions saved before the tail hash existed: the offset must at least follow a newline.
  if (prev.tail_hash === null) return prev.offset === 0 || byteBefore(fd, prev.offset) === 10;
  return tailHash(fd, prev.offset) === prev.tail_hash;
}
