/**
 * The static embedder for a long run of bundles (a first index, a new embedder): past its first few thousand texts
 * it embeds on a worker thread (`embed-worker.ts`), so the thread that builds and stores bundles only stores what
 * comes back, while the worker embeds the next batch. The same function makes the same vectors on either thread;
 * a short run (a few appended events) never starts the thread.
 */
import { Worker } from "node:worker_threads";
import { leanHeaps } from "../common/lean-heaps.ts";
import { bitBytes, rememberCode } from "../store/shared/vector-codes.ts";
import type { EmbedReply, EmbedRequest, Recycle } from "./embed-worker.ts";
import { createStaticEmbedder } from "./static.ts";
import { type Embedder, EmbedderError } from "./types.ts";

/** Texts embedded in this thread before the worker starts: below this, starting it costs more than it saves. */
export const THREAD_AFTER_TEXTS = 2_048;

export interface ClosableEmbedder extends Embedder {
  /** Stops the worker thread, if one started (the embedder still works after, starting another). */
  close(): Promise<void>;
}

/** The vectors of a reply, each remembered with the code the worker made of it. */
function unpack(
  reply: Extract<EmbedReply, { vectors: Float32Array }>,
  count: number,
  dimension: number,
): Float32Array[] {
  const bytes = bitBytes(dimension);
  const buffer = (a: Uint8Array, at: number, length: number) => Buffer.from(a.buffer, a.byteOffset + at, length);
  return Array.from({ length: count }, (_, i) => {
    const v = reply.vectors.subarray(i * dimension, (i + 1) * dimension);
    rememberCode(v, {
      code: buffer(reply.codes, i * dimension, dimension),
      bits: buffer(reply.bits, i * bytes, bytes),
    });
    return v;
  });
}

export function createThreadedStaticEmbedder(after = THREAD_AFTER_TEXTS): ClosableEmbedder {
  const local = createStaticEmbedder();
  let worker: Worker | null = null;
  let embeddedHere = 0;
  let nextId = 0;
  const waiting = new Map<number, { resolve(v: Float32Array[]): void; reject(e: Error): void; count: number }>();
  /** The reply behind each answer, whose arrays go back to the worker when the answer is released. */
  const replies = new WeakMap<readonly Float32Array[], Extract<EmbedReply, { vectors: Float32Array }>>();

  function start(): Worker {
    // Run the sibling module in whichever form this one was loaded: TypeScript from source, JavaScript from dist.
    const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
    // Past its first few thousand texts a run is long: its heaps, this thread's too, collect sooner (lean-heaps.ts).
    leanHeaps();
    // The worker's garbage is short-lived batches: a small young generation keeps it from adding to peak RSS
    // (a 1 GB index peaked at 342 MB with V8's default, 287-293 MB with this).
    const w = new Worker(new URL(`./embed-worker${ext}`, import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    const dimension = local.dimension!;
    w.on("message", (reply: EmbedReply) => {
      const job = waiting.get(reply.id);
      if (!job) return;
      waiting.delete(reply.id);
      // An idle worker must not keep the process alive; one with work in hand must.
      if (waiting.size === 0) w.unref();
      if ("error" in reply) job.reject(new EmbedderError(`${local.id} failed on its thread: ${reply.error}`));
      else {
        const vectors = unpack(reply, job.count, dimension);
        replies.set(vectors, reply);
        job.resolve(vectors);
      }
    });
    const fail = (error: Error) => {
      for (const job of waiting.values()) job.reject(new EmbedderError(`${local.id} thread failed: ${error.message}`));
      waiting.clear();
      if (worker === w) worker = null;
    };
    w.on("error", fail);
    w.on("exit", (code) => fail(new Error(`exited with code ${code}`)));
    w.unref();
    return w;
  }

  return {
    id: local.id,
    get dimension() {
      return local.dimension;
    },
    concurrent: true,
    embed(texts, purpose, signal) {
      if (worker === null && embeddedHere + texts.length <= after) {
        embeddedHere += texts.length;
        return local.embed(texts, purpose, signal);
      }
      worker ??= start();
      const w = worker;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, count: texts.length });
        w.ref();
        w.postMessage({ id, texts: [...texts] } satisfies EmbedRequest);
      });
    },
    release(vectors) {
      const reply = replies.get(vectors);
      replies.delete(vectors);
      if (!reply || !worker) return;
      const { vectors: v, codes, bits } = reply;
      worker.postMessage({ recycle: { vectors: v, codes, bits } } satisfies Recycle, [
        v.buffer,
        codes.buffer,
        bits.buffer,
      ]);
    },
    async close() {
      const w = worker;
      worker = null;
      embeddedHere = 0;
      if (w) await w.terminate();
    },
  };
}
