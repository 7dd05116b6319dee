/**
 * The parse worker: reads and prepares the files it is sent, in order, and posts each chunk back. It runs at most
 * `ahead` chunks ahead of the writer (a shared counter pair), so memory stays bounded however slow the writes are.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { inThreadSource, type PreparedChunk, type ReadRequest } from "./batch-source.ts";
import type { ReadFileResult } from "./read-file.ts";

export type WorkerMessage =
  | { kind: "chunk"; path: string; chunk: PreparedChunk }
  | { kind: "end"; path: string; result: ReadFileResult }
  | { kind: "fail"; path: string; message: string };

export interface WorkerInit {
  port: MessagePort;
  /** [posted, consumed] message counts. */
  counters: Int32Array;
  ahead: number;
}

const { port, counters, ahead } = workerData as WorkerInit;

function post(msg: WorkerMessage): void {
  // Wait while the writer is `ahead` messages behind; it notifies after each message it consumes.
  for (;;) {
    const consumed = Atomics.load(counters, 1);
    if (Atomics.load(counters, 0) - consumed < ahead) break;
    Atomics.wait(counters, 1, consumed, 1000);
  }
  port.postMessage(msg);
  Atomics.add(counters, 0, 1);
  Atomics.notify(counters, 0);
}

parentPort?.on("message", (jobs: ReadRequest[]) => {
  for (const req of jobs) {
    try {
      const result = inThreadSource(req, (chunk) => post({ kind: "chunk", path: req.path, chunk }));
      post({ kind: "end", path: req.path, result });
    } catch (error) {
      post({ kind: "fail", path: req.path, message: (error as Error).message });
    }
  }
});
