/**
 * A BERT sentence-embedding model as an ONNX file, built from the weights a model's hub repository publishes
 * (`model.safetensors`, `config.json`). The hub's weights file is the one artifact every BERT-family sentence model
 * has at a stable path, with a checksum anyone can check; the ONNX exports beside it have moved and changed
 * (`model.onnx` to `onnx/`, several quantised builds). Building the graph here makes the weights the pin.
 *
 * The graph takes `input_ids` and `attention_mask` ([batch, tokens], int64) and gives `sentence_embedding`
 * ([batch, hidden], float): the encoder, mean pooling over the unmasked tokens, unit length. `int8` stores the
 * query, key, value and intermediate matrices as int8 with a scale per column and multiplies them with
 * onnxruntime's dynamic quantisation.
 */
import { type Attribute, type Initializer, type Node, onnxFile } from "./onnx-file.ts";
import { type Weights, WeightsError } from "./safetensors.ts";

export interface BertConfig {
  hidden_size: number;
  num_attention_heads: number;
  num_hidden_layers: number;
  layer_norm_eps?: number;
  hidden_act?: string;
}

export type Precision = "float32" | "int8";

export function readBertConfig(json: unknown): BertConfig {
  const c = json as Record<string, unknown>;
  const ok = (k: string) => typeof c[k] === "number" && Number.isInteger(c[k]) && (c[k] as number) > 0;
  if (!ok("hidden_size") || !ok("num_attention_heads") || !ok("num_hidden_layers"))
    throw new WeightsError("config.json does not describe a BERT encoder (hidden_size, num_attention_heads, …)");
  if (c["hidden_act"] !== undefined && c["hidden_act"] !== "gelu")
    throw new WeightsError(`only the gelu activation is built, not '${String(c["hidden_act"])}'`);
  return c as unknown as BertConfig;
}

class GraphBuilder {
  readonly nodes: Node[] = [];
  readonly initializers: Initializer[] = [];
  private n = 0;

  op(op: string, inputs: readonly string[], attributes?: Record<string, Attribute>, domain?: string): string {
    const out = `t${this.n++}`;
    this.nodes.push({
      op,
      inputs,
      outputs: [out],
      ...(attributes ? { attributes } : {}),
      ...(domain ? { domain } : {}),
    });
    return out;
  }

  floats(name: string, dims: readonly number[], values: Float32Array | readonly number[]): string {
    const data = values instanceof Float32Array ? values : Float32Array.from(values);
    this.initializers.push({
      name,
      dtype: "float",
      dims,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
    return name;
  }

  /** A list of int64, or with `scalar` one int64 of rank 0. */
  int64s(name: string, values: readonly number[], scalar = false): string {
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push({
      name,
      dtype: "int64",
      dims: scalar ? [] : [values.length],
      data: new Uint8Array(data.buffer),
    });
    return name;
  }

  int8s(name: string, dims: readonly number[], values: Int8Array): string {
    this.initializers.push({ name, dtype: "int8", dims, data: new Uint8Array(values.buffer) });
    return name;
  }
}

/** A PyTorch linear weight is [out, in]; the graph multiplies by [in, out]. */
function transposed(w: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(w.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = w[r * cols + c]!;
  return out;
}

export function buildBertOnnx(weights: Weights, config: BertConfig, precision: Precision = "float32"): Uint8Array {
  const prefix = weights.has("embeddings.word_embeddings.weight") ? "" : "bert.";
  const w = (name: string) => weights.floats(prefix + name);
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  if (H % heads !== 0) throw new WeightsError("hidden_size is not a multiple of num_attention_heads");
  const eps = { float: config.layer_norm_eps ?? 1e-12 };
  const g = new GraphBuilder();

  const linear = (x: string, name: string): string => {
    const [out, inn] = weights.shape(`${prefix + name}.weight`) as [number, number];
    const m = transposed(w(`${name}.weight`), out, inn);
    const bias = g.floats(`${name}.bias`, [out], w(`${name}.bias`));
    // The two matrices that write back into the residual stream stay float: quantising their inputs cost the
    // most (cosine to float32 down to 0.95 on real bundles, against 0.98 with them kept).
    if (precision === "float32" || name.endsWith(".output.dense"))
      return g.op("Add", [g.op("MatMul", [x, g.floats(`${name}.weight`, [inn, out], m)]), bias]);
    const { values, scales } = quantizeColumns(m, inn, out);
    const q = g.int8s(`${name}.weight_q`, [inn, out], values);
    const s = g.floats(`${name}.weight_scale`, [out], scales);
    return g.op("DynamicQuantizeMatMul", [x, q, s, "", bias], undefined, "com.microsoft");
  };
  const norm = (x: string, name: string) =>
    g.op(
      "LayerNormalization",
      [x, g.floats(`${name}.weight`, [H], w(`${name}.weight`)), g.floats(`${name}.bias`, [H], w(`${name}.bias`))],
      { axis: -1, epsilon: eps },
    );

  // embeddings: word + position + token type 0 (sentence models are fed one segment)
  const [positions] = weights.shape(`${prefix}embeddings.position_embeddings.weight`) as [number];
  const words = g.op("Gather", [
    g.floats(
      "word_embeddings",
      weights.shape(`${prefix}embeddings.word_embeddings.weight`),
      w("embeddings.word_embeddings.weight"),
    ),
    "input_ids",
  ]);
  const step = g.int64s("one_i", [1], true);
  const length = g.op("Gather", [g.op("Shape", ["input_ids"]), step]);
  const range = g.op("Range", [g.int64s("zero_i", [0], true), length, step]);
  const pos = g.op("Gather", [
    g.floats("position_embeddings", [positions, H], w("embeddings.position_embeddings.weight")),
    range,
  ]);
  const type0 = g.floats("token_type_0", [H], w("embeddings.token_type_embeddings.weight").subarray(0, H));
  let x = norm(g.op("Add", [g.op("Add", [words, pos]), type0]), "embeddings.LayerNorm");

  const mask = g.op("Cast", ["attention_mask"], { to: 1 });
  const maskBias = g.op("Unsqueeze", [
    g.op("Mul", [g.op("Sub", [g.floats("one_f", [], [1]), mask]), g.floats("neg", [], [-10000])]),
    g.int64s("axes_12", [1, 2]),
  ]);
  const split = g.int64s("heads_shape", [0, 0, heads, H / heads]);
  const merge = g.int64s("hidden_shape", [0, 0, H]);
  const scale = g.floats("scale", [], [1 / Math.sqrt(H / heads)]);
  const half = g.floats("half", [], [0.5]);
  const sqrt2 = g.floats("sqrt2", [], [Math.SQRT2]);
  const one = "one_f";

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const at = `encoder.layer.${l}`;
    const headsOf = (name: string, perm: number[]) =>
      g.op("Transpose", [g.op("Reshape", [linear(x, `${at}.attention.self.${name}`), split])], { perm });
    const q = headsOf("query", [0, 2, 1, 3]);
    const k = headsOf("key", [0, 2, 3, 1]);
    const v = headsOf("value", [0, 2, 1, 3]);
    const probs = g.op("Softmax", [g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), maskBias])], {
      axis: -1,
    });
    const context = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, v])], { perm: [0, 2, 1, 3] }), merge]);
    x = norm(g.op("Add", [linear(context, `${at}.attention.output.dense`), x]), `${at}.attention.output.LayerNorm`);
    const inner = linear(x, `${at}.intermediate.dense`);
    const gelu = g.op("Mul", [
      g.op("Mul", [inner, half]),
      g.op("Add", [g.op("Erf", [g.op("Div", [inner, sqrt2])]), one]),
    ]);
    x = norm(g.op("Add", [linear(gelu, `${at}.output.dense`), x]), `${at}.output.LayerNorm`);
  }

  // mean over the unmasked tokens, then unit length
  const m = g.op("Unsqueeze", [mask, g.int64s("axis_2", [2])]);
  const axis1 = g.int64s("axis_1", [1]);
  const sum = g.op("ReduceSum", [g.op("Mul", [x, m]), axis1], { keepdims: 0 });
  const count = g.op("Max", [g.op("ReduceSum", [m, axis1], { keepdims: 0 }), g.floats("tiny", [], [1e-9])]);
  const mean = g.op("Div", [sum, count]);
  const length2 = g.op("Sqrt", [g.op("ReduceSum", [g.op("Mul", [mean, mean]), axis1], { keepdims: 1 })]);
  g.nodes.push({
    op: "Div",
    inputs: [mean, g.op("Max", [length2, g.floats("tiny_norm", [], [1e-12])])],
    outputs: ["sentence_embedding"],
  });

  return onnxFile(
    {
      name: "cairn-sentence-embedding",
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [
        { name: "input_ids", dtype: "int64", shape: ["batch", "tokens"] },
        { name: "attention_mask", dtype: "int64", shape: ["batch", "tokens"] },
      ],
      outputs: [{ name: "sentence_embedding", dtype: "float", shape: ["batch", H] }],
    },
    { "": 17, "com.microsoft": 1 },
  );
}

/** Symmetric int8 with one scale per output column: the column's largest magnitude maps to 127. */
function quantizeColumns(m: Float32Array, rows: number, cols: number): { values: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) scales[c] = Math.max(scales[c]!, Math.abs(m[r * cols + c]!));
  for (let c = 0; c < cols; c++) scales[c] = scales[c]! / 127 || 1;
  const values = new Int8Array(m.length);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) values[r * cols + c] = Math.round(m[r * cols + c]! / scales[c]!);
  return { values, scales };
}
