/**
 * A transformers.js feature-extraction model (mean pooling, normalised): a folder holding an ONNX export
 * (`config.json`, `tokenizer.json`, `onnx/model*.onnx`), or a hub id such as `Xenova/all-MiniLM-L6-v2` where the
 * machine may download. `@huggingface/transformers` is an optional dependency: install it beside cairn to use this.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { errorMessage } from "../common/errors.ts";
import { type Embedder, EmbedderError, MODEL_FLOOR, unitLength } from "./types.ts";

/** The part of `@huggingface/transformers` used here. */
export interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: "feature-extraction",
    model: string,
  ): Promise<
    (
      texts: string[],
      opts: { pooling: "mean"; normalize: boolean },
    ) => Promise<{ dims: number[]; data: ArrayLike<number> }>
  >;
}

export interface TransformersEmbedderOptions {
  /** A local folder, or a hub id. */
  model: string;
  /** Working directory for a relative folder. */
  cwd?: string;
  batchSize?: number;
  /** Loads the library; tests pass a fake. */
  load?: () => Promise<TransformersModule>;
}

async function loadLibrary(): Promise<TransformersModule> {
  const name = "@huggingface/transformers";
  try {
    return (await import(name)) as TransformersModule;
  } catch (error) {
    throw new EmbedderError(
      `the transformers embedder needs ${name}: run 'npm install ${name}' where cairn is installed (${errorMessage(error)})`,
    );
  }
}

export function createTransformersEmbedder(opts: TransformersEmbedderOptions): Embedder {
  const folder = resolve(opts.cwd ?? process.cwd(), opts.model);
  const local = existsSync(folder) && statSync(folder).isDirectory();
  if (!local && (opts.model.startsWith(".") || opts.model.startsWith("/")))
    throw new EmbedderError(`no model folder at ${folder}`);
  let extractor: Awaited<ReturnType<TransformersModule["pipeline"]>> | null = null;
  let dimension: number | null = null;

  async function ready() {
    if (extractor) return extractor;
    const lib = await (opts.load ?? loadLibrary)();
    if (local) {
      // A folder is loaded as a "local model" named after itself, and nothing is fetched.
      lib.env.allowLocalModels = true;
      lib.env.allowRemoteModels = false;
      lib.env.localModelPath = `${dirname(folder)}/`;
    }
    try {
      extractor = await lib.pipeline("feature-extraction", local ? basename(folder) : opts.model);
    } catch (error) {
      throw new EmbedderError(`cannot load the model '${opts.model}': ${errorMessage(error)}`);
    }
    return extractor;
  }

  return {
    id: `transformers:${local ? folder : opts.model}`,
    floor: MODEL_FLOOR,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      const run = await ready();
      const out: Float32Array[] = [];
      const batch = opts.batchSize ?? 16;
      for (let i = 0; i < texts.length; i += batch) {
        const part = texts.slice(i, i + batch);
        const tensor = await run([...part], { pooling: "mean", normalize: true });
        const [rows, dims] = tensor.dims;
        if (rows !== part.length || !dims)
          throw new EmbedderError(`the model returned a tensor of shape ${tensor.dims}`);
        dimension = dims;
        for (let r = 0; r < rows; r++)
          out.push(unitLength(Float32Array.from({ length: dims }, (_, i) => tensor.data[r * dims + i]!)));
      }
      return out;
    },
  };
}
