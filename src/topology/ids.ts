import type { Provider } from "./types.ts";

/**
 * A 64-bit string hash as 16 hex digits: two independent 32-bit multiply-xorshift lanes over the UTF-16 code
 * units. Not cryptographic (ids are not secrets), but stable across runs and machines, and several times cheaper
 * than SHA-1 on the indexing hot path; at 64 bits, collisions within one index are not a practical concern.
 */
export function hash64(s: string): string {
  return finish(absorb(0xdeadbeef, 0x41c6ce57, s), s.length);
}

/** Hash state after a prefix, so ids that share it (every event of a session) skip re-reading it. */
export interface HashPrefix {
  h1: number;
  h2: number;
  length: number;
}

export function hashPrefix(prefix: string): HashPrefix {
  const [h1, h2] = absorb(0xdeadbeef, 0x41c6ce57, prefix);
  return { h1, h2, length: prefix.length };
}

export function hashWithPrefix(p: HashPrefix, rest: string): string {
  return finish(absorb(p.h1, p.h2, rest), p.length + rest.length);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex8(n: number): string {
  return HEX[(n >>> 24) & 255]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
}

function absorb(a: number, b: number, s: string): [number, number] {
  let h1 = a;
  let h2 = b;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return [h1, h2];
}

function finish([a, b]: [number, number], length: number): string {
  let h1 = a ^ length;
  let h2 = b ^ length;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return hex8(h2) + hex8(h1);
}

/**
 * Event ids hash the provider, the session and the record's own key, so re-indexing a file (or indexing it on
 * another machine) gives the same ids; they never depend on insertion order.
 */
export function eventId(provider: Provider, sessionId: string, key: string): string {
  return sessionIdHasher(provider, sessionId)(key);
}

/**
 * `eventId` for many keys of one session. The id's first 4 hex digits come from the session alone, the other 12
 * from the session and the key: a session's events sort together, so the index's B-trees take a session's
 * inserts in one region instead of all over the file (random keys made indexing 3x slower at scale). 48 bits per
 * session keep collisions within a session negligible (about 1e-5 for a 100,000-event session).
 */
export function sessionIdHasher(provider: Provider, sessionId: string): (key: string) => string {
  const base = `${provider}\u0000${sessionId}\u0000`;
  const prefix = hashPrefix(base);
  const bucket = hash64(base).slice(0, 4);
  return (key) => bucket + hashWithPrefix(prefix, key).slice(4);
}

/** Ids of derived events: the source's session bucket, then a hash of the source, the derivation and its index. */
export function derivedEventId(sourceId: string, kind: string, index: number): string {
  return sourceId.slice(0, 4) + hash64(`${sourceId}\u0000${kind}\u0000${index}`).slice(4);
}
