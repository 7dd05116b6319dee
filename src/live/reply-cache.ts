/**
 * Remembers the reply to each `clientMsgId` for a while, so a retried command (a double-click, a resend after
 * a reconnect) gets the same answer instead of running twice. Bounded by count and age.
 */
import type { ClientCommandType, CommandReply } from "./protocol.ts";

export interface ReplyCacheOptions {
  maxEntries: number;
  ttlMs: number;
  now: () => number;
}

export interface CachedReply {
  type: ClientCommandType;
  reply: Promise<CommandReply>;
  /** Present once the reply is known, so synchronous callers can read it. */
  settled?: CommandReply;
  at: number;
}

export interface ReplyCache {
  get(clientMsgId: string): CachedReply | undefined;
  set(clientMsgId: string, type: ClientCommandType, reply: Promise<CommandReply> | CommandReply): CachedReply;
  readonly size: number;
}

export function createReplyCache(options: ReplyCacheOptions): ReplyCache {
  const entries = new Map<string, CachedReply>();

  const prune = (now: number): void => {
    for (const [key, entry] of entries) {
      if (entries.size <= options.maxEntries && now - entry.at <= options.ttlMs) break;
      entries.delete(key);
    }
  };

  return {
    get(clientMsgId) {
      const now = options.now();
      prune(now);
      return entries.get(clientMsgId);
    },
    set(clientMsgId, type, reply) {
      const at = options.now();
      const entry: CachedReply =
        reply instanceof Promise ? { type, reply, at } : { type, reply: Promise.resolve(reply), settled: reply, at };
      if (reply instanceof Promise) {
        void reply.then((value) => {
          entry.settled = value;
        });
      }
      entries.set(clientMsgId, entry);
      prune(at);
      return entry;
    },
    get size() {
      return entries.size;
    },
  };
}
