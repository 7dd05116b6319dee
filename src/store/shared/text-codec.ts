/**
 * How the SQLite store keeps an event's text and meta: as written, or, when large and compressible, as a BLOB of
 * its UTF-8 bytes deflated (raw deflate, level 1). The column's SQLite type tells the two apart: a BLOB is always
 * compressed, a TEXT never. Every reader sees the value it had (issue 41: the columns are the logical model,
 * their storage is the store's). Level 1 because the parse worker pays for it on every event: on the pi corpus
 * it took 79 MB of texts and metas to 44 MB for 1.2 s of CPU (docs/performance.md).
 */
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";

/** Values shorter than this in UTF-8 are kept as they are: a row's overhead dwarfs what deflate could save. */
export const MIN_COMPRESSED_BYTES = 512;
/** The compressed form is kept only when at most this share of the UTF-8 bytes (it costs a decode on every read). */
const MAX_KEPT_RATIO = 0.8;

/**
 * The stored form of a value: its deflated UTF-8 bytes when that is worth it, else the string itself. The bytes
 * are the ones SQLite would have stored for the string (a lone surrogate becomes U+FFFD in both), so a value
 * reads back the same either way.
 */
export function encodeStored(value: string): string | Buffer {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most short values are ruled out without counting.
  if (value.length * 3 < MIN_COMPRESSED_BYTES) return value;
  // Counted without a copy: the values just over the length test are mostly under the threshold in bytes.
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes < MIN_COMPRESSED_BYTES) return value;
  const packed = deflateRawSync(value, { level: 1 });
  if (packed.length > bytes * MAX_KEPT_RATIO) return value;
  // Its own memory: zlib hands back a view of a 16 KB output chunk, and the parse worker's message to the writer
  // copies a view's whole buffer (the 1 GB index's peak memory rose 41 MB by it).
  const { buffer, byteOffset, length } = packed;
  return buffer.byteLength === length ? packed : Buffer.from(buffer.slice(byteOffset, byteOffset + length));
}

/** Whether a stored value is compressed (a BLOB read back from SQLite, or bytes `encodeStored` made). */
export function isCompressed(stored: unknown): stored is Uint8Array {
  return stored instanceof Uint8Array;
}

/** The UTF-8 bytes of a compressed value. */
function inflate(stored: Uint8Array): Buffer {
  return inflateRawSync(stored);
}

/** The value a stored one stands for; a string (or null) passes through untouched. */
export function decodeStored(stored: string | Uint8Array): string;
export function decodeStored<T extends null | undefined>(stored: string | Uint8Array | T): string | T;
export function decodeStored(stored: string | Uint8Array | null | undefined): string | null | undefined {
  return isCompressed(stored) ? inflate(stored).toString("utf8") : stored;
}

/**
 * Whether two stored values stand for the same value. Equal strings or equal bytes are (deflate at one level is
 * deterministic); a compressed and a plain one (a row written before compression, or by a store that keeps it
 * plain) are compared decoded. Never by identity: bytes read from SQLite are a new Buffer every time.
 */
export function sameStored(a: unknown, b: unknown): boolean {
  const ca = isCompressed(a);
  const cb = isCompressed(b);
  if (ca && cb) return Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
  if (ca || cb) return decodeStored(a as string) === decodeStored(b as string);
  return a === b;
}

/**
 * The first `chars` characters (code points, as SQLite's `substr` counts them) of a compressed value, inflating
 * only as much of it as they need: a head of a many-megabyte tool output reads a few kilobytes.
 */
export function compressedHead(stored: Uint8Array, chars: number): string {
  if (chars <= 0) return "";
  // A character is at most 4 UTF-8 bytes, and deflate's output never runs much ahead of its input.
  for (let take = chars * 4 + 1024; ; take *= 4) {
    const whole = take >= stored.length;
    const bytes = whole
      ? inflate(stored)
      : inflateRawSync(stored.subarray(0, take), { finishFlush: constants.Z_SYNC_FLUSH });
    // A cut inside a character decodes to U+FFFD at the end: counted in full only when it is whole.
    if (whole || bytes.length >= chars * 4 + 4) return headChars(bytes.toString("utf8"), chars);
  }
}

/** The first `n` code points of a string. */
export function headChars(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) i += isHighSurrogate(s, i) ? 2 : 1;
  return s.slice(0, i);
}

/** The last `n` code points of a string. */
export function tailChars(s: string, n: number): string {
  let i = s.length;
  for (let k = 0; k < n && i > 0; k++) i -= i >= 2 && isHighSurrogate(s, i - 2) ? 2 : 1;
  return s.slice(i);
}

function isHighSurrogate(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}
