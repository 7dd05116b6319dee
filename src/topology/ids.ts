import { createHash } from "node:crypto";
import type { Provider } from "./types.ts";

/**
 * Event ids are 16 hex digits of a SHA-1 over the provider, the session and the record's own key, so re-indexing
 * a file (or indexing it on another machine) gives the same ids; they never depend on insertion order.
 */
export function eventId(provider: Provider, sessionId: string, key: string): string {
  return createHash("sha1").update(`${provider}\u0000${sessionId}\u0000${key}`).digest("hex").slice(0, 16);
}

/** Ids of derived events: the source event, the derivation and its index among that source's derivations. */
export function derivedEventId(sourceId: string, kind: string, index: number): string {
  return createHash("sha1").update(`${sourceId}\u0000${kind}\u0000${index}`).digest("hex").slice(0, 16);
}
