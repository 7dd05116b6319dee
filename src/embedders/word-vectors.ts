/**
 * The word-vector table of the default embedder: words in frequency order (so a word's index is its rank), each
 * with a vector stored as 4-bit integers and one scale; a vector may be made of parts (general English, software
 * text) that the embedder averages separately. About 100,000 words × 200 dimensions fit in about 10 MB, small
 * enough to ship inside cairn's own package. Loading builds only an open-addressing hash over the word bytes and
 * leaves the vectors packed, so it takes milliseconds, not the hundreds a `Map` of 150,000 strings would.
 *
 * Layout: "CAIRNWV1", a little-endian u32 header length, the JSON header, then per word a f32 scale, then per word
 * `dims / 2` bytes of packed values (value + 8 in each nibble, low nibble first), then u32 offsets of each word
 * (and the end) into the word bytes, then the words' ASCII bytes.
 */
import { readFileSync } from "node:fs";

const MAGIC = "CAIRNWV1";
const LEVELS = 7;

export interface WordVectors {
  readonly dims: number;
  /** Dimensions of each part of a word's vector (e.g. general English, then software text), in order. */
  readonly parts: readonly number[];
  readonly header: Record<string, unknown>;
  readonly size: number;
  /** Rank of a word (0 = most frequent), or undefined when it is not in the table. */
  rank(word: string): number | undefined;
  /** Adds `weight` × the word's vector to `into` (length `dims`). */
  addTo(rank: number, weight: number, into: Float32Array): void;
}

export interface WordVectorSource {
  words: readonly string[];
  dims: number;
  vectors: ReadonlyArray<ArrayLike<number>>;
  header: Record<string, unknown>;
}

export function encodeWordVectors(src: WordVectorSource): Buffer {
  const { words, dims } = src;
  if (dims % 2 !== 0) throw new Error("word vectors need an even number of dimensions");
  if (words.some((w) => !/^[\x21-\x7e]+$/.test(w))) throw new Error("word vectors hold printable ASCII words only");
  const header = Buffer.from(JSON.stringify({ ...src.header, words: words.length, dims, bits: 4 }));
  const scales = Buffer.alloc(words.length * 4);
  const packed = Buffer.alloc((words.length * dims) / 2);
  src.vectors.forEach((v, w) => {
    let max = 0;
    for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(v[i]!));
    const scale = max / LEVELS || 1;
    scales.writeFloatLE(scale, w * 4);
    for (let i = 0; i < dims; i += 2) {
      const lo = Math.round(v[i]! / scale) + 8;
      const hi = Math.round(v[i + 1]! / scale) + 8;
      packed[(w * dims + i) / 2] = lo | (hi << 4);
    }
  });
  const offsets = Buffer.alloc((words.length + 1) * 4);
  let at = 0;
  words.forEach((w, i) => {
    offsets.writeUInt32LE(at, i * 4);
    at += w.length;
  });
  offsets.writeUInt32LE(at, words.length * 4);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  return Buffer.concat([
    Buffer.from(MAGIC),
    len,
    header,
    scales,
    packed,
    offsets,
    Buffer.from(words.join(""), "latin1"),
  ]);
}

/** FNV-1a over a string's char codes; for the table's ASCII words it equals the hash of their bytes. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function fnv1aBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

export function decodeWordVectors(buf: Buffer): WordVectors {
  if (buf.subarray(0, 8).toString("latin1") !== MAGIC) throw new Error("not a cairn word-vector file");
  const headerLength = buf.readUInt32LE(8);
  const header = JSON.parse(buf.subarray(12, 12 + headerLength).toString("utf8")) as Record<string, unknown>;
  const count = header["words"] as number;
  const dims = header["dims"] as number;
  let at = 12 + headerLength;
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + count * 4));
  at += count * 4;
  const packed = buf.subarray(at, at + (count * dims) / 2);
  at += (count * dims) / 2;
  const offsets = new Uint32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + (count + 1) * 4));
  at += (count + 1) * 4;
  const bytes = buf.subarray(at);
  if (bytes.length !== offsets[count]) throw new Error("word-vector file is truncated");

  let slots = 1;
  while (slots < count * 2) slots <<= 1;
  const mask = slots - 1;
  const table = new Int32Array(slots).fill(-1);
  for (let w = 0; w < count; w++) {
    let slot = fnv1aBytes(bytes, offsets[w]!, offsets[w + 1]!) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = w;
  }
  const matches = (w: number, word: string) => {
    const start = offsets[w]!;
    if (offsets[w + 1]! - start !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (bytes[start + i] !== word.charCodeAt(i)) return false;
    return true;
  };

  const parts = Array.isArray(header["parts"])
    ? (header["parts"] as Array<{ dims: number }>).map((p) => p.dims)
    : [dims];
  if (parts.reduce((a, b) => a + b, 0) !== dims) throw new Error("word-vector parts do not add up to its dimensions");
  return {
    dims,
    parts,
    header,
    size: count,
    rank(word) {
      let slot = fnv1a(word) & mask;
      for (;;) {
        const w = table[slot]!;
        if (w === -1) return undefined;
        if (matches(w, word)) return w;
        slot = (slot + 1) & mask;
      }
    },
    addTo(rank, weight, into) {
      const s = scales[rank]! * weight;
      const base = (rank * dims) / 2;
      for (let i = 0; i < dims / 2; i++) {
        const byte = packed[base + i]!;
        into[2 * i]! += ((byte & 15) - 8) * s;
        into[2 * i + 1]! += ((byte >> 4) - 8) * s;
      }
    },
  };
}

let shipped: WordVectors | null = null;

/** The table shipped in cairn's package (`data/word-vectors.bin`), loaded once per process. */
export function shippedWordVectors(): WordVectors {
  if (!shipped) {
    const url = new URL("../../data/word-vectors.bin", import.meta.url);
    let buf: Buffer;
    try {
      buf = readFileSync(url);
    } catch (error) {
      throw new Error(
        `cairn's word vectors are missing (${url.pathname}): reinstall cairn, or choose another embedder with 'cairn embed --embedder'`,
        { cause: error },
      );
    }
    shipped = decodeWordVectors(buf);
  }
  return shipped;
}
