/**
 * An installed sentence model (`cairn models pull`) run in process by onnxruntime, with the model's own tokenizer.
 * Both libraries are optional dependencies, loaded at the first text to embed: a user who never installs a model
 * loads neither. Texts are sorted by length and batched so each batch pads to about its own length; onnxruntime
 * runs a batch on its own threads, so the event loop is free while it does.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../common/errors.ts";
import { embedderId, GRAPH_FILE, type InstalledModel, TOKENIZER_FILE } from "./models/installed.ts";
import { knownModel } from "./models/known.ts";
import { type Embedder, EmbedderError } from "./types.ts";

interface OrtTensor {
  data: ArrayLike<number>;
  dims: readonly number[];
}
interface OrtSession {
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
  release?(): Promise<void>;
}
interface Ort {
  InferenceSession: { create(path: string, opts: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: "int64", data: BigInt64Array, dims: number[]) => unknown;
}
interface TokenizerModule {
  Tokenizer: new (json: unknown, config: unknown) => { encode(text: string): { ids: number[] } };
}

/** The packages the runtime needs, as `npm install` takes them. */
export const RUNTIME_PACKAGES = ["onnxruntime-node", "@huggingface/tokenizers"] as const;

async function load<T>(name: string): Promise<T> {
  try {
    const mod = (await import(name)) as { default?: T } & T;
    return (mod.default ?? mod) as T;
  } catch (error) {
    throw new EmbedderError(
      `a sentence model needs ${RUNTIME_PACKAGES.join(" and ")}: run 'npm install ${RUNTIME_PACKAGES.join(" ")}' where cairn is installed (${errorMessage(error)})`,
    );
  }
}

/** Tokens per batch: long texts go a few at a time, short ones many. */
const BATCH_TOKENS = 4096;

export function createModelEmbedder(model: InstalledModel): Embedder {
  const m = model.manifest;
  let ready: Promise<{ ort: Ort; session: OrtSession; encode: (t: string) => number[] }> | null = null;
  const start = async () => {
    const [ort, tok] = await Promise.all([
      load<Ort>("onnxruntime-node"),
      load<TokenizerModule>("@huggingface/tokenizers"),
    ]);
    let tokenizer: InstanceType<TokenizerModule["Tokenizer"]>;
    let session: OrtSession;
    try {
      tokenizer = new tok.Tokenizer(JSON.parse(readFileSync(join(model.dir, TOKENIZER_FILE), "utf8")), {});
      session = await ort.InferenceSession.create(join(model.dir, GRAPH_FILE), {
        intraOpNumThreads: Math.max(1, Math.min(4, availableParallelism())),
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
      });
    } catch (error) {
      throw new EmbedderError(
        `cannot load the model ${m.id} from ${model.dir}: ${errorMessage(error)}; 'cairn models verify' checks it`,
      );
    }
    const encode = (text: string) => {
      const ids = tokenizer.encode(text).ids;
      if (ids.length <= m.maxTokens) return ids;
      // keep the start, and the closing [SEP] the model was trained to see
      return [...ids.slice(0, m.maxTokens - 1), ids[ids.length - 1]!];
    };
    return { ort, session, encode };
  };

  return {
    id: embedderId(model),
    dimension: m.dimension,
    // the floor as calibrated now, for a model installed before a recalibration too
    floor: knownModel(m.id)?.floor ?? m.floor,
    async embed(texts, purpose) {
      ready ??= start();
      let r: Awaited<typeof ready>;
      try {
        r = await ready;
      } catch (error) {
        ready = null;
        throw error;
      }
      const prefix = m.prefix ? (purpose === "query" ? m.prefix.query : m.prefix.document) : "";
      const encoded = texts.map((t, i) => ({ i, ids: r.encode(prefix + t) }));
      const order = [...encoded].sort((a, b) => a.ids.length - b.ids.length);
      const out: Float32Array[] = new Array(texts.length);
      for (let at = 0; at < order.length; ) {
        let end = at + 1;
        while (end < order.length && order[end]!.ids.length * (end - at + 1) <= BATCH_TOKENS) end++;
        const batch = order.slice(at, end);
        // sorted by length: the batch's last text is its longest (a tokenizer gives every text its [CLS] and [SEP])
        const width = Math.max(1, batch[batch.length - 1]!.ids.length);
        const ids = new BigInt64Array(batch.length * width);
        const mask = new BigInt64Array(batch.length * width);
        batch.forEach((b, row) => {
          b.ids.forEach((id, col) => {
            ids[row * width + col] = BigInt(id);
            mask[row * width + col] = 1n;
          });
        });
        const dims = [batch.length, width];
        let result: Record<string, OrtTensor>;
        try {
          result = await r.session.run({
            input_ids: new r.ort.Tensor("int64", ids, dims),
            attention_mask: new r.ort.Tensor("int64", mask, dims),
          });
        } catch (error) {
          throw new EmbedderError(`the model ${m.id} failed: ${errorMessage(error)}`);
        }
        const data = result["sentence_embedding"]!.data;
        batch.forEach((b, row) => {
          out[b.i] = Float32Array.from({ length: m.dimension }, (_, d) => data[row * m.dimension + d]!);
        });
        at = end;
      }
      return out;
    },
    async close() {
      if (!ready) return;
      const r = await ready.catch(() => null);
      ready = null;
      await r?.session.release?.();
    },
  };
}
