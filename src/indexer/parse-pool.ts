/**
 * Drives a parse worker from the synchronous indexer. The writer blocks on a shared counter until the worker has
 * posted, then takes the message with `receiveMessageOnPort`: the indexer stays synchronous (one code path for
 * the CLI, watch mode and tests) while parsing overlaps with SQLite's writes on a second core.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { leanHeaps } from "../common/lean-heaps.ts";
import type { BatchSource, ReadRequest } from "./batch-source.ts";
import { CONSUMED, CONSUMED_KB, POSTED, type WorkerInit, type WorkerMessage } from "./parse-messages.ts";

/**
 * How far the worker may run ahead: source kilobytes (a read chunk is at most 4 MiB, prepared it is a few times
 * that) and messages (each small file is two: its chunk and its end). 8 MiB of source ahead held 20-30 MB more at
 * the peak once the worker got faster, for no time saved (a 1 GB index: 43.7 against 46.3 s of CPU).
 */
const AHEAD_KB = 4 * 1024;
const AHEAD_MESSAGES = 256;
/** How long the writer sleeps for the worker's next message before it offers the caller a place to stop. */
const WAIT_MS = 25;

export interface ParsePool {
  /** Queues files to parse; they must later be read through `source` in the same order. */
  enqueue(jobs: ReadRequest[]): void;
  source: BatchSource;
  /** Whether `path` is the next queued file (so its messages must be read or skipped before the next one's). */
  isNext(path: string): boolean;
  /** Discards the queued messages of the next file, which the writer decided not to read after all. */
  skip(path: string): void;
  close(): Promise<void>;
}

export function startParsePool(): ParsePool {
  // A pool is started for a long run (megabytes of new transcripts): its heaps collect sooner (lean-heaps.ts).
  leanHeaps();
  const channel = new MessageChannel();
  const counters = new Int32Array(new SharedArrayBuffer(16));
  // Run the sibling module in whichever form this one was loaded: TypeScript from source, JavaScript from dist.
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const init: WorkerInit = { port: channel.port2, counters, ahead: AHEAD_MESSAGES, aheadKb: AHEAD_KB };
  const worker = new Worker(new URL(`./parse-worker${ext}`, import.meta.url), {
    workerData: init,
    transferList: [channel.port2],
    // A small young generation keeps the worker's short-lived parse garbage from adding to peak RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  let crashed: Error | undefined;
  worker.on("error", (e) => {
    crashed = e;
  });
  // The writer's own work keeps the process alive; an idle worker must not.
  worker.unref();
  const queue: string[] = [];

  /** The next message, or undefined when none came within `ms` (so the caller can stop while it waits). */
  function next(ms: number): WorkerMessage | undefined {
    const until = Date.now() + ms;
    for (;;) {
      const got = receiveMessageOnPort(channel.port1);
      if (got) return consumed(got.message as WorkerMessage);
      if (crashed) throw new Error(`parse worker failed: ${crashed.message}`);
      const left = until - Date.now();
      if (left <= 0) return undefined;
      // Sleep until the posted count moves past what it was when the port was found empty.
      const posted = Atomics.load(counters, POSTED);
      const late = receiveMessageOnPort(channel.port1);
      if (late) return consumed(late.message as WorkerMessage);
      Atomics.wait(counters, POSTED, posted, left);
    }
  }

  function consumed(msg: WorkerMessage): WorkerMessage {
    Atomics.add(counters, CONSUMED_KB, msg.kb);
    Atomics.add(counters, CONSUMED, 1);
    Atomics.notify(counters, CONSUMED);
    return msg;
  }

  const source: BatchSource = function* (req) {
    if (queue[0] !== req.path) throw new Error(`parse worker: ${req.path} read out of order`);
    queue.shift();
    for (;;) {
      const msg = next(WAIT_MS);
      if (msg === undefined) {
        yield null; // still parsing: a safe point to stop at while the writer waits
        continue;
      }
      if (msg.path !== req.path) throw new Error(`parse worker: got ${msg.path} while reading ${req.path}`);
      if (msg.kind === "chunk") yield msg.chunk;
      else if (msg.kind === "end") return msg.result;
      else throw new Error(msg.message);
    }
  };

  return {
    enqueue(jobs) {
      for (const j of jobs) queue.push(j.path);
      worker.postMessage(jobs);
    },
    source,
    isNext(path) {
      return queue[0] === path;
    },
    skip(path) {
      const chunks = source({ path, offset: 0, line: 1, state: null });
      while (!chunks.next().done);
    },
    async close() {
      channel.port1.close();
      await worker.terminate();
    },
  };
}
