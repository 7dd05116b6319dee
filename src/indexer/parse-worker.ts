/**
 * The parse worker: reads and prepares the files it is sent, in order, and posts each chunk back. It runs ahead
 * of the writer by at most `aheadKb` of source and `ahead` messages (shared counters), so memory stays bounded
 * however slow the writes are, while many small files can still queue up ahead of a slow write.
 */
import { parentPort, workerData } from "node:worker_threads";
import { inThreadSource, type ReadRequest } from "./batch-source.ts";
import {
  CONSUMED,
  CONSUMED_KB,
  moveLargeTexts,
  POSTED,
  POSTED_KB,
  type WorkerInit,
  type WorkerMessage,
} from "./parse-messages.ts";

const { port, counters, ahead, aheadKb } = workerData as WorkerInit;

function post(msg: WorkerMessage): void {
  // Wait while the writer is too far behind; it notifies after each message it consumes.
  for (;;) {
    const consumed = Atomics.load(counters, CONSUMED);
    const messages = Atomics.load(counters, POSTED) - consumed;
    const kb = Atomics.load(counters, POSTED_KB) - Atomics.load(counters, CONSUMED_KB);
    if (messages === 0 || (messages < ahead && kb < aheadKb)) break;
    Atomics.wait(counters, CONSUMED, consumed, 1000);
  }
  port.postMessage(msg, msg.kind === "chunk" ? moveLargeTexts(msg.chunk) : []);
  Atomics.add(counters, POSTED_KB, msg.kb);
  Atomics.add(counters, POSTED, 1);
  Atomics.notify(counters, POSTED);
}

parentPort?.on("message", (jobs: ReadRequest[]) => {
  for (const req of jobs) {
    let offset = req.offset;
    try {
      const chunks = inThreadSource(req);
      for (;;) {
        const next = chunks.next();
        if (next.done) {
          post({ kind: "end", path: req.path, result: next.value, kb: 0 });
          break;
        }
        const chunk = next.value;
        if (chunk === null) continue;
        const kb = Math.ceil((chunk.at.offset - offset) / 1024);
        offset = chunk.at.offset;
        post({ kind: "chunk", path: req.path, chunk, kb });
      }
    } catch (error) {
      post({ kind: "fail", path: req.path, message: (error as Error).message, kb: 0 });
    }
  }
});
