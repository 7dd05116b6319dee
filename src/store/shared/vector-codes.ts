/**
 * How vectors are kept for search: an int8 code per vector (each component scaled by 127 over the largest, which
 * keeps the direction to within a fraction of a percent) and its sign bits. A search scans the sign bits of every
 * vector (Hamming distance: popcounts over 32-bit words, a few nanoseconds a vector), keeps the closest
 * candidates, and ranks only those by the cosine of their codes. Pure typed-array code; the store persists it.
 */

/** Slots per chunk of sign bits: 4,096 × 32 bytes for a 256-dimensional vector, rewritten as it fills. */
export const CHUNK_SLOTS = 4_096;
/** Candidates ranked by their codes per query: enough that the bits' approximation rarely loses a neighbour. */
export const MIN_CANDIDATES = 400;
export const MAX_CANDIDATES = 16_000;

export interface VectorCode {
  code: Buffer;
  bits: Buffer;
}

/** Codes of vectors encoded elsewhere (an embedder's worker thread), by the vector they were made from. */
const encodedElsewhere = new WeakMap<Float32Array, VectorCode>();

/**
 * Records `code` as the encoding of `v`, made by `encodeVector` on another thread: the thread that stores the
 * vector then takes it instead of encoding again. `v` must not change after.
 */
export function rememberCode(v: Float32Array, code: VectorCode): void {
  encodedElsewhere.set(v, code);
}

export function encodeVector(v: Float32Array): VectorCode {
  const known = encodedElsewhere.get(v);
  if (known) return known;
  const code = Buffer.alloc(v.length);
  const bits = Buffer.alloc(bitBytes(v.length));
  encodeInto(v, code, bits);
  return { code, bits };
}

/** Encodes `v` into zeroed arrays of its length and `bitBytes` of it (a worker fills one array for many vectors). */
export function encodeInto(v: Float32Array, code: Uint8Array, bits: Uint8Array): void {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  // Written through a typed view: Buffer's checked writeInt8 cost more than the rest of the encoding.
  const out = new Int8Array(code.buffer, code.byteOffset, v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    out[i] = max > 0 ? Math.round((x / max) * 127) : 0;
    if (x > 0) bits[i >> 3]! |= 1 << (i & 7);
  }
}

/** Sign bits are stored in whole 32-bit words so the scan can read them as a Uint32Array. */
export function bitBytes(dimension: number): number {
  return Math.ceil(dimension / 32) * 4;
}

export interface BitChunk {
  rowids: Uint32Array;
  /** One byte per slot: the bundle kind's index. */
  kinds: Uint8Array;
  bits: Uint32Array;
}

/** A view of little-endian 32-bit words, copying only when SQLite's buffer is not 4-byte aligned. */
function words(b: Buffer): Uint32Array {
  return b.byteOffset % 4 === 0
    ? new Uint32Array(b.buffer, b.byteOffset, b.length >> 2)
    : new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
}

export function toChunk(row: { rowids: Buffer; kinds: Buffer; bits: Buffer }): BitChunk {
  return { rowids: words(row.rowids), kinds: new Uint8Array(row.kinds), bits: words(row.bits) };
}

/**
 * The rowids of the `wanted` vectors nearest to `query` by Hamming distance, among slots whose kind and anchor
 * rowid pass `keep`. A rowid seen in two slots (re-embedded) is kept once.
 * Two passes over plain typed arrays: distances and their histogram, then the slots within the cut-off.
 */
export function nearestByBits(
  query: Buffer,
  chunks: readonly BitChunk[],
  wanted: number,
  keep: (kind: number, rowid: number) => boolean = () => true,
): number[] {
  const q = words(query);
  const n = q.length;
  const histogram = new Uint32Array(n * 32 + 2);
  const distances = chunks.map((c) => {
    const slots = c.rowids.length;
    const d = new Uint16Array(slots);
    for (let slot = 0; slot < slots; slot++) {
      if (!keep(c.kinds[slot]!, c.rowids[slot]!)) {
        d[slot] = n * 32 + 1;
        continue;
      }
      let sum = 0;
      const base = slot * n;
      for (let w = 0; w < n; w++) {
        let v = (q[w]! ^ c.bits[base + w]!) >>> 0;
        v -= (v >>> 1) & 0x55555555;
        v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
        sum += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
      }
      d[slot] = sum;
      histogram[sum]!++;
    }
    return d;
  });
  let cut = 0;
  for (let seen = 0; cut < n * 32; cut++) {
    seen += histogram[cut]!;
    if (seen >= wanted) break;
  }
  // Everything closer than the cut, then from the cut's own distance only as many as are still wanted, newest
  // (highest rowid) first: copies of one text share a distance and would otherwise all come along.
  const out = new Set<number>();
  chunks.forEach((c, i) => {
    const d = distances[i]!;
    for (let slot = 0; slot < d.length; slot++) if (d[slot]! < cut) out.add(c.rowids[slot]!);
  });
  for (let i = chunks.length - 1; i >= 0 && out.size < wanted; i--) {
    const c = chunks[i]!;
    const d = distances[i]!;
    for (let slot = d.length - 1; slot >= 0 && out.size < wanted; slot--) if (d[slot] === cut) out.add(c.rowids[slot]!);
  }
  return [...out];
}
