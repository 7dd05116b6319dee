/**
 * The search thread's answers to the latest questions, so text typed again (a backspace, a query cleared and typed
 * anew) is answered at once. Kept only while the index is unchanged: the stamp is the size and modification time of
 * the database and its write-ahead log, which every commit by an indexer changes.
 */
import { statSync } from "node:fs";
import type { SearchAnswer } from "../app/cairn.ts";

/** Questions kept: a few queries typed out key by key. */
const KEPT = 200;

export class AnswerCache {
  private readonly answers = new Map<string, SearchAnswer>();
  private stamp = "";
  private readonly stampOf: () => string;

  constructor(stampOf: () => string) {
    this.stampOf = stampOf;
  }

  get(key: string): SearchAnswer | undefined {
    const now = this.stampOf();
    if (now !== this.stamp) {
      this.answers.clear();
      this.stamp = now;
      return undefined;
    }
    const kept = this.answers.get(key);
    if (kept) {
      // Most recently used last, so the oldest goes first when the cache is full.
      this.answers.delete(key);
      this.answers.set(key, kept);
    }
    return kept;
  }

  set(key: string, answer: SearchAnswer): void {
    this.answers.set(key, answer);
    if (this.answers.size > KEPT) this.answers.delete(this.answers.keys().next().value!);
  }
}

/** The stamp of a SQLite index file: its size and time, and its write-ahead log's. */
export function fileStamp(db: string): () => string {
  const one = (path: string) => {
    const s = statSync(path, { throwIfNoEntry: false });
    return s ? `${s.size}:${s.mtimeMs}` : "-";
  };
  return () => `${one(db)} ${one(`${db}-wal`)}`;
}
