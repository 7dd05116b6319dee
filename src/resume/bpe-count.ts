/**
 * Exact o200k token counts from a rank table that loads with one file read (data/o200k-ranks.bin, written by
 * scripts/build-token-table.ts from gpt-tokenizer's ranks). The text is split by gpt-tokenizer's own o200k
 * pattern; each piece is looked up whole, else merged pair by pair, the lowest-ranked adjacent pair first (the
 * leftmost among equals), as byte-pair encoding does. Special-token text counts as plain text. Counts equal
 * gpt-tokenizer's (test/resume/bpe-count.test.ts compares them on every text of the real transcripts).
 */

export interface RankTable {
  offsets: Int32Array;
  slots: Int32Array;
  bytes: Uint8Array;
}

const MAGIC = 0x524b3230;

export function fnv1a(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

export function readRankTable(file: Uint8Array): RankTable {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new Error("not an o200k rank table");
  const n = view.getUint32(4, true);
  const slots = view.getUint32(8, true);
  const length = view.getUint32(12, true);
  // Int32Array views need 4-byte alignment; a Buffer from readFileSync may sit at any offset of its pool.
  const aligned = file.byteOffset % 4 === 0 ? file : file.slice();
  const base = aligned.byteOffset + HEADER;
  return {
    offsets: new Int32Array(aligned.buffer, base, n + 1),
    slots: new Int32Array(aligned.buffer, base + 4 * (n + 1), slots),
    bytes: new Uint8Array(aligned.buffer, base + 4 * (n + 1) + 4 * slots, length),
  };
}

const HEADER = 16;

/**
 * The table file for ranks in rank order (a token's text, or its bytes when they are not UTF-8). Layout,
 * little-endian: magic, u32 token count N, u32 slot count S (a power of two), u32 byte length B; Int32
 * offsets[N + 1] (token r is bytes[offsets[r], offsets[r + 1])); Int32 slots[S] (rank + 1, 0 empty; open
 * addressing, linear probing, FNV-1a over the token's bytes); then the B bytes.
 */
export function buildRankTable(ranks: readonly (string | readonly number[])[]): Uint8Array {
  const tokens = ranks.map((t) => (typeof t === "string" ? encoder.encode(t) : Uint8Array.from(t)));
  const n = tokens.length;
  let slots = 1;
  while (slots < n * 2) slots *= 2;
  const length = tokens.reduce((sum, t) => sum + t.length, 0);
  const file = new Uint8Array(HEADER + 4 * (n + 1) + 4 * slots + length);
  const view = new DataView(file.buffer);
  for (const [i, v] of [MAGIC, n, slots, length].entries()) view.setUint32(4 * i, v, true);
  const t = readRankTable(file);
  let at = 0;
  tokens.forEach((token, rank) => {
    t.offsets[rank] = at;
    t.bytes.set(token, at);
    at += token.length;
    let slot = fnv1a(token, 0, token.length) & (slots - 1);
    while (t.slots[slot] !== 0) slot = (slot + 1) & (slots - 1);
    t.slots[slot] = rank + 1;
  });
  t.offsets[n] = at;
  return file;
}

/** The rank of bytes b[start, end), or -1. */
function rankOf(t: RankTable, b: Uint8Array, start: number, end: number): number {
  const mask = t.slots.length - 1;
  const length = end - start;
  for (let slot = fnv1a(b, start, end) & mask; ; slot = (slot + 1) & mask) {
    const entry = t.slots[slot]!;
    if (entry === 0) return -1;
    const rank = entry - 1;
    const from = t.offsets[rank]!;
    if (t.offsets[rank + 1]! - from !== length) continue;
    let same = true;
    for (let i = 0; i < length; i++)
      if (t.bytes[from + i] !== b[start + i]) {
        same = false;
        break;
      }
    if (same) return rank;
  }
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(1024);

/** Tokens of one piece of the split: 1 when the piece is a token, else the parts left once no pair merges. */
function pieceTokens(t: RankTable, piece: string): number {
  if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
  const n = encoder.encodeInto(piece, scratch).written;
  if (rankOf(t, scratch, 0, n) >= 0) return 1;
  // starts[i] is where part i begins; ranks[i] the rank of parts i and i + 1 merged (or Infinity).
  const starts: number[] = [];
  for (let i = 0; i <= n; i++) starts.push(i);
  const pairRank = (i: number): number => {
    if (i + 2 >= starts.length) return Number.POSITIVE_INFINITY;
    const r = rankOf(t, scratch, starts[i]!, starts[i + 2]!);
    return r < 0 ? Number.POSITIVE_INFINITY : r;
  };
  const ranks: number[] = [];
  for (let i = 0; i < starts.length - 1; i++) ranks.push(pairRank(i));
  while (starts.length > 2) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++)
      if (ranks[i]! < best) {
        best = ranks[i]!;
        at = i;
      }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    ranks.splice(at + 1, 1);
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  return starts.length - 1;
}

/** Pieces repeat (words, indentation, punctuation): each distinct one is encoded once per table and process. */
const pieceCaches = new WeakMap<RankTable, Map<string, number>>();
const PIECES_KEPT = 200_000;
const scanners = new WeakMap<RegExp, RegExp>();

export function countWithTable(t: RankTable, split: RegExp, text: string): number {
  let pieces = pieceCaches.get(t);
  if (!pieces) {
    pieces = new Map();
    pieceCaches.set(t, pieces);
  }
  // A global copy of the pattern of our own, so that its lastIndex is no one else's.
  let re = scanners.get(split);
  if (!re) {
    re = new RegExp(split.source, `${split.flags.replace("g", "")}g`);
    scanners.set(split, re);
  }
  re.lastIndex = 0;
  let count = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const piece = m[0];
    let n = pieces.get(piece);
    if (n === undefined) {
      n = pieceTokens(t, piece);
      if (pieces.size >= PIECES_KEPT) pieces.clear();
      pieces.set(piece, n);
    }
    count += n;
  }
  return count;
}
