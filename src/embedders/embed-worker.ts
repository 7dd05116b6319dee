/**
 * The static embedder's worker thread (`static-threaded.ts`): embeds each batch of texts it is sent with the
 * shipped word vectors and posts the vectors back with their codes as the store keeps them, transferred, in the
 * order the batches came.
 */
import { parentPort } from "node:worker_threads";
import { bitBytes, encodeInto } from "../store/shared/vector-codes.ts";
import { staticDimension, staticVector } from "./static.ts";
import { shippedWordVectors } from "./word-vectors.ts";

export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** A reply's arrays, handed back once their vectors are stored, to be filled again. */
export interface Recycle {
  recycle: Arrays;
}

interface Arrays {
  vectors: Float32Array<ArrayBuffer>;
  codes: Uint8Array<ArrayBuffer>;
  bits: Uint8Array<ArrayBuffer>;
}

/** One vector per text, with its int8 code and sign bits (`store/shared/vector-codes.ts`), each array end to end. */
export type EmbedReply = ({ id: number } & Arrays) | { id: number; error: string };

/**
 * Arrays handed back, reused for replies of the same size: new ones each time were garbage on the other thread,
 * outside its heap, that its collector freed late (tens of megabytes by the end of a first index).
 */
const spare: Arrays[] = [];
const SPARE = 8;

function arraysFor(count: number, dimension: number, bytes: number): Arrays {
  const at = spare.findIndex((a) => a.vectors.length === count * dimension);
  if (at >= 0) {
    const reused = spare.splice(at, 1)[0]!;
    reused.bits.fill(0);
    return reused;
  }
  return {
    vectors: new Float32Array(count * dimension),
    codes: new Uint8Array(count * dimension),
    bits: new Uint8Array(count * bytes),
  };
}

parentPort?.on("message", (msg: EmbedRequest | Recycle) => {
  if ("recycle" in msg) {
    if (spare.length < SPARE) spare.push(msg.recycle);
    return;
  }
  const { id, texts } = msg;
  try {
    const table = shippedWordVectors();
    const dimension = staticDimension(table);
    const bytes = bitBytes(dimension);
    const { vectors, codes, bits } = arraysFor(texts.length, dimension, bytes);
    texts.forEach((text, i) => {
      const v = staticVector(text, table, vectors.subarray(i * dimension, (i + 1) * dimension));
      // Encoded here too, so the storing thread does not.
      encodeInto(v, codes.subarray(i * dimension, (i + 1) * dimension), bits.subarray(i * bytes, (i + 1) * bytes));
    });
    parentPort!.postMessage({ id, vectors, codes, bits } satisfies EmbedReply, [
      vectors.buffer,
      codes.buffer,
      bits.buffer,
    ]);
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message } satisfies EmbedReply);
  }
});
