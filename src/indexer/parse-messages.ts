/** What the parse worker and the writer exchange: messages, and the shared counters that pace the worker. */
import type { MessagePort } from "node:worker_threads";
import type { PreparedChunk } from "./batch-source.ts";
import type { ReadFileResult } from "./read-file.ts";

export type WorkerMessage =
  | { kind: "chunk"; path: string; chunk: PreparedChunk; kb: number }
  | { kind: "end"; path: string; result: ReadFileResult; kb: number }
  | { kind: "fail"; path: string; message: string; kb: number };

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
