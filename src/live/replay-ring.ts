/**
 * The replay ring: the current epoch's recent envelopes, bounded by count, bytes and age, so a viewport that
 * reconnects with `afterSeq` can be brought up to date exactly. Trimmed by size and time only, never by what
 * viewports have seen: one dead tab must not pin memory.
 */
import type { Envelope } from "./protocol.ts";

export interface ReplayRingOptions {
  maxEvents: number;
  maxBytes: number;
  maxAgeMs: number;
}

export const DEFAULT_RING_OPTIONS: ReplayRingOptions = {
  maxEvents: 10_000,
  maxBytes: 8 * 1024 * 1024,
  maxAgeMs: 5 * 60_000,
};

export interface RingEntry {
  envelope: Envelope;
  /** Serialized once at emit time and shared by every subscriber. */
  json: string;
}

export interface ReplayRing {
  push(entry: RingEntry): void;
  /** True when every envelope after `afterSeq` is still held (or there is none). */
  covers(afterSeq: number): boolean;
  after(afterSeq: number): RingEntry[];
  evictExpired(now: number): void;
  clear(nextSeq: number): void;
  /** Seq of the oldest envelope held; `headSeq + 1` when empty. */
  readonly oldestSeq: number;
  readonly headSeq: number;
  readonly size: number;
  readonly bytes: number;
}

export function createReplayRing(options: Partial<ReplayRingOptions> = {}): ReplayRing {
  const limits = { ...DEFAULT_RING_OPTIONS, ...options };
  if (limits.maxEvents < 1) throw new Error("replay ring: maxEvents must be at least 1");
  // A plain array with a moving start index: pushes are amortised O(1), and the dead prefix is dropped in
  // one splice once it is larger than the live part.
  let entries: RingEntry[] = [];
  let start = 0;
  let bytes = 0;
  let headSeq = 0;

  const evictOne = (): void => {
    const entry = entries[start]!;
    bytes -= entry.json.length;
    entries[start] = undefined as unknown as RingEntry;
    start++;
    if (start > 1024 && start * 2 > entries.length) {
      entries = entries.slice(start);
      start = 0;
    }
  };
  const size = (): number => entries.length - start;

  return {
    push(entry) {
      if (entry.envelope.seq !== headSeq + 1) {
        throw new Error(`replay ring: seq ${entry.envelope.seq} does not follow ${headSeq}`);
      }
      entries.push(entry);
      bytes += entry.json.length;
      headSeq = entry.envelope.seq;
      while (size() > limits.maxEvents || (bytes > limits.maxBytes && size() > 1)) evictOne();
    },
    covers(afterSeq) {
      return afterSeq <= headSeq && afterSeq >= this.oldestSeq - 1;
    },
    after(afterSeq) {
      const out: RingEntry[] = [];
      const first = Math.max(start, start + (afterSeq - this.oldestSeq + 1));
      for (let i = first; i < entries.length; i++) out.push(entries[i]!);
      return out;
    },
    evictExpired(now) {
      while (size() > 0 && now - entries[start]!.envelope.ts > limits.maxAgeMs) evictOne();
    },
    clear(nextSeq) {
      entries = [];
      start = 0;
      bytes = 0;
      headSeq = nextSeq - 1;
    },
    get oldestSeq() {
      return size() > 0 ? entries[start]!.envelope.seq : headSeq + 1;
    },
    get headSeq() {
      return headSeq;
    },
    get size() {
      return size();
    },
    get bytes() {
      return bytes;
    },
  };
}
