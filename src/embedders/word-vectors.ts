/**
 * The word-vector table of the default embedder: words in frequency order (so a word's index is its rank), each
 * with a vector stored as 4-bit integers and one scale; a vector may be made of parts (general English, software
 * text) that the embedder averages separately. About 120,000 words × 200 dimensions fit in about 14 MB, small
 * enough to ship inside cairn's own package.
 *
 * Layout (version 2, "CAIRNWV2"): the magic, a little-endian u32 header length, the JSON header (padded with spaces
 * to a multiple of four bytes), then per word a f32 scale, u32 offsets of each word (and the end) into the word
 * bytes, an open-addressing hash of the words (i32 rank per slot, -1 empty; FNV-1a of the word's bytes, linear
 * probing, slots the least power of two ≥ 2 × words), the words' ASCII bytes, and last per word `dims / 2` bytes of
 * packed values (value + 8 in each nibble, low nibble first). The hash is stored so that loading builds nothing,
 * and the vectors come last so that a process reads only the pages of the words it embeds: indexing a few new
 * events reads about 3 MB of the file instead of 14 and skips the 121,000-word hash build (docs/performance.md).
 * Version 1 ("CAIRNWV1": scales, vectors, offsets, bytes; the hash built at every load) is no longer read.
 */
import { closeSync, openSync, readSync } from "node:fs";

const MAGIC = "CAIRNWV2";
const LEVELS = 7;
/** Vectors are read from the file in pages of this many bytes (655 words of 200 dimensions), on first use. */
const PAGE = 1 << 16;

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
  const offsets = new Uint32Array(words.length + 1);
  let at = 0;
  words.forEach((w, i) => {
    offsets[i] = at;
    at += w.length;
  });
  offsets[words.length] = at;
  const bytes = Buffer.from(words.join(""), "latin1");
  return layoutWordVectors({ ...src.header, words: words.length, dims, bits: 4 }, scales, offsets, bytes, packed);
}

/** Version 2's bytes from a table's sections; the hash is built here. Exported for the format's tests. */
export function layoutWordVectors(
  header: Record<string, unknown>,
  scales: Uint8Array,
  offsets: Uint32Array,
  bytes: Uint8Array,
  packed: Uint8Array,
): Buffer {
  let json = JSON.stringify(header);
  while ((MAGIC.length + 4 + Buffer.byteLength(json)) % 4 !== 0) json += " ";
  const head = Buffer.from(json);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  const table = hashWords(offsets, bytes, offsets.length - 1);
  const view = (a: Uint32Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return Buffer.concat([Buffer.from(MAGIC), len, head, scales, view(offsets), view(table), bytes, packed]);
}

const slotCount = (count: number): number => {
  let slots = 1;
  while (slots < count * 2) slots <<= 1;
  return slots;
};

function hashWords(offsets: Uint32Array, bytes: Uint8Array, count: number): Int32Array {
  const table = new Int32Array(slotCount(count)).fill(-1);
  const mask = table.length - 1;
  for (let w = 0; w < count; w++) {
    let slot = fnv1aBytes(bytes, offsets[w]!, offsets[w + 1]!) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = w;
  }
  return table;
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

/** A table's sections; `packed` is filled by `ensure(rank)` before a rank's vector is read. */
interface Sections {
  header: Record<string, unknown>;
  count: number;
  dims: number;
  scales: Float32Array;
  offsets: Uint32Array;
  table: Int32Array;
  bytes: Uint8Array;
  packed: Uint8Array;
  ensure(rank: number): void;
}

function readHeader(head: Buffer): { header: Record<string, unknown>; at: number } {
  if (head.subarray(0, 8).toString("latin1") !== MAGIC) throw new Error("not a cairn word-vector file");
  const headerLength = head.readUInt32LE(8);
  if (head.length < 12 + headerLength) throw new Error("word-vector file is truncated");
  const header = JSON.parse(head.subarray(12, 12 + headerLength).toString("utf8")) as Record<string, unknown>;
  return { header, at: 12 + headerLength };
}

/** Bytes of a version 2 file from the end of its header to the start of the vectors. */
const indexLength = (count: number, wordBytes: number): number =>
  count * 4 + (count + 1) * 4 + slotCount(count) * 4 + wordBytes;

/** A whole table already in memory. */
export function decodeWordVectors(buf: Buffer): WordVectors {
  const { header, at: start } = readHeader(buf);
  const count = header["words"] as number;
  const dims = header["dims"] as number;
  const copy = <T>(make: (b: ArrayBuffer) => T, from: number, length: number): T =>
    make(buf.buffer.slice(buf.byteOffset + from, buf.byteOffset + from + length) as ArrayBuffer);
  if (buf.length < start + indexLength(count, 0)) throw new Error("word-vector file is truncated");
  let at = start;
  const scales = copy((b) => new Float32Array(b), at, count * 4);
  at += count * 4;
  const offsets = copy((b) => new Uint32Array(b), at, (count + 1) * 4);
  at += (count + 1) * 4;
  const table = copy((b) => new Int32Array(b), at, slotCount(count) * 4);
  at += slotCount(count) * 4;
  const bytes = buf.subarray(at, at + offsets[count]!);
  const packed = buf.subarray(at + bytes.length, at + bytes.length + (count * dims) / 2);
  if (bytes.length !== offsets[count] || packed.length !== (count * dims) / 2)
    throw new Error("word-vector file is truncated");
  return wordVectors({ header, count, dims, scales, offsets, table, bytes, packed, ensure() {} });
}

/**
 * A version 2 file opened for reading what is used: the header, scales, offsets, hash and words now (one read), the
 * vectors a page at a time when a word on it is first embedded. The file stays open while vectors remain unread.
 */
export function openWordVectors(path: string | URL): WordVectors {
  const fd = openSync(path, "r");
  try {
    let head = Buffer.allocUnsafe(1 << 16);
    let got = readSync(fd, head, 0, head.length, 0);
    const headerEnd = got >= 12 ? 12 + head.readUInt32LE(8) : 0;
    if (headerEnd > got) {
      head = Buffer.allocUnsafe(headerEnd);
      got = readSync(fd, head, 0, headerEnd, 0);
    }
    const { header, at } = readHeader(head.subarray(0, got));
    const count = header["words"] as number;
    const dims = header["dims"] as number;
    // The words' byte count is the last offset; read the offsets' end first to size the index read.
    const end = Buffer.alloc(4);
    readSync(fd, end, 0, 4, at + count * 4 + count * 4);
    const wordBytes = end.readUInt32LE(0);
    const index = new Uint8Array(indexLength(count, wordBytes));
    if (readSync(fd, index, 0, index.length, at) !== index.length) throw new Error("word-vector file is truncated");
    let o = 0;
    const scales = new Float32Array(index.buffer, o, count);
    o += count * 4;
    const offsets = new Uint32Array(index.buffer, o, count + 1);
    o += (count + 1) * 4;
    const table = new Int32Array(index.buffer, o, slotCount(count));
    o += slotCount(count) * 4;
    const bytes = index.subarray(o, o + wordBytes);
    const vectorsAt = at + index.length;
    const packed = new Uint8Array((count * dims) / 2);
    const pages = Math.ceil(packed.length / PAGE);
    const loaded = new Uint8Array(pages);
    let unread = pages;
    let open = true;
    const load = (page: number) => {
      const from = page * PAGE;
      const length = Math.min(PAGE, packed.length - from);
      if (readSync(fd, packed, from, length, vectorsAt + from) !== length)
        throw new Error("word-vector file is truncated");
      loaded[page] = 1;
      if (--unread === 0 && open) {
        open = false;
        closeSync(fd);
      }
    };
    const rowBytes = dims / 2;
    return wordVectors({
      header,
      count,
      dims,
      scales,
      offsets,
      table,
      bytes,
      packed,
      ensure(rank) {
        const first = Math.floor((rank * rowBytes) / PAGE);
        const last = Math.floor(((rank + 1) * rowBytes - 1) / PAGE);
        for (let p = first; p <= last; p++) if (!loaded[p]) load(p);
      },
    });
  } catch (error) {
    try {
      closeSync(fd);
    } catch {}
    throw error;
  }
}

function wordVectors(s: Sections): WordVectors {
  const { header, count, dims, scales, offsets, table, bytes, packed } = s;
  const mask = table.length - 1;
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
      s.ensure(rank);
      const sc = scales[rank]! * weight;
      const base = (rank * dims) / 2;
      for (let i = 0; i < dims / 2; i++) {
        const byte = packed[base + i]!;
        into[2 * i]! += ((byte & 15) - 8) * sc;
        into[2 * i + 1]! += ((byte >> 4) - 8) * sc;
      }
    },
  };
}

let shipped: WordVectors | null = null;

/** The table shipped in cairn's package (`data/word-vectors.bin`), opened once per process. */
export function shippedWordVectors(): WordVectors {
  if (!shipped) {
    const url = new URL("../../data/word-vectors.bin", import.meta.url);
    try {
      shipped = openWordVectors(url);
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
      throw new Error(
        `cairn's word vectors are missing (${url.pathname}): reinstall cairn, or choose another embedder with 'cairn embed --embedder'`,
        { cause: error },
      );
    }
  }
  return shipped;
}
