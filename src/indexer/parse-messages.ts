/** What the parse worker and the writer exchange: messages, and the shared counters that pace the worker. */
import type { MessagePort } from "node:worker_threads";
import { EVENT_INSERT_COLUMNS } from "../store/shared/prepare-batch.ts";
import type { PreparedChunk } from "./batch-source.ts";
import type { ReadFileResult } from "./read-file.ts";

export type WorkerMessage =
  | { kind: "chunk"; path: string; chunk: PreparedChunk; kb: number }
  | { kind: "end"; path: string; result: ReadFileResult; kb: number }
  | { kind: "fail"; path: string; message: string; kb: number };

/** Event texts at least this long cross to the writer as UTF-8 bytes, moved rather than copied. */
const LARGE_TEXT = 1 << 20;
const TEXT_AT = EVENT_INSERT_COLUMNS.indexOf("text");

/**
 * Replaces each large event text in a chunk by its UTF-8 bytes and returns their buffers for the transfer list, and
 * leaves out the texts the store keeps compressed (their compressed form crosses instead).
 * Cloning a 200 MB string costs a copy on each side of the channel and the peak memory of both; the writer
 * binds the bytes as they are (the store casts them to text), so the string is never rebuilt on its side.
 */
export function moveLargeTexts(chunk: PreparedChunk): ArrayBuffer[] {
  const moved: ArrayBuffer[] = [];
  for (const { values, stored } of chunk.prepared.events) {
    // The SQLite writer keeps a compressed text as it is: the text itself need not cross at all.
    if (stored?.text !== undefined) {
      values[TEXT_AT] = null;
      continue;
    }
    const text = values[TEXT_AT];
    if (typeof text !== "string" || text.length < LARGE_TEXT) continue;
    const bytes = encoder.encode(text);
    values[TEXT_AT] = bytes;
    moved.push(bytes.buffer as ArrayBuffer);
  }
  return moved;
}
const encoder = new TextEncoder();

/** Indexes into the shared counters. */
export const POSTED = 0;
export const CONSUMED = 1;
export const POSTED_KB = 2;
export const CONSUMED_KB = 3;

export interface WorkerInit {
  port: MessagePort;
  /** Message counts and source kilobytes, posted and consumed. */
  counters: Int32Array;
  ahead: number;
  aheadKb: number;
}
