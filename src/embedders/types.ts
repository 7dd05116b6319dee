/**
 * An embedder turns bundle and query text into unit vectors. Its `id` is recorded beside the vectors it made:
 * vectors from two embedders are not comparable, so a different id means re-embedding.
 */

export type EmbedPurpose = "document" | "query";

export interface Embedder {
  /** Stable identity: kind, model and anything else that changes the vectors (e.g. `static:glove100-hash60:v1`). */
  readonly id: string;
  /** Known up front for local embedders; `null` until the first answer for remote ones. */
  readonly dimension: number | null;
  /**
   * The cosine similarity under which a bundle is taken as unrelated to a query: meaning hits below it are dropped,
   * so a query nothing in the history is about gets no hits by meaning (docs/search.md, "Nothing matches"). None
   * (0) where nothing is known of the embedder's scale.
   */
  readonly floor?: number;
  /**
   * One unit-length vector per text, in order. Throws `EmbedderError` when the embedder cannot answer. A remote
   * embedder stops waiting when `signal` aborts.
   */
  embed(texts: readonly string[], purpose: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]>;
  /** Embeds off this thread (a worker): the caller may hand it the next batches before it stores the first. */
  readonly concurrent?: boolean;
  /** Takes back an answer's vectors once the caller has stored them, to reuse their memory: they must not be read after. */
  release?(vectors: readonly Float32Array[]): void;
  /** Releases what a long run started (a worker thread); the embedder still works after. */
  close?(): Promise<void>;
}

export const EMBEDDER_KINDS = ["model", "static", "openai", "transformers", "none"] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/**
 * What the user chose; stored in the index so every command embeds queries the way the vectors were made. `floor`
 * replaces the embedder's own similarity floor (`Embedder.floor`); it changes no vector.
 */
export type EmbedderConfig =
  /** A sentence model installed with `cairn models pull` (`src/embedders/models/`). */
  | { kind: "model"; model: string; floor?: number }
  | { kind: "static"; floor?: number }
  | { kind: "none" }
  /** An OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, LM Studio, vLLM, …). */
  | { kind: "openai"; url: string; model: string; floor?: number }
  /** A transformers.js feature-extraction model: a local folder, or a hub id where the machine has internet. */
  | { kind: "transformers"; model: string; floor?: number };

/**
 * The floor of a model nothing is known of (an endpoint, a transformers.js model): sentence-embedding models put
 * unrelated texts mostly under 0.2 and related ones above 0.3, though some (nomic-embed-text) sit higher
 * throughout; `cairn embed --floor` sets the model's own (docs/search.md).
 */
export const MODEL_FLOOR = 0.25;

export const DEFAULT_EMBEDDER: EmbedderConfig = { kind: "static" };

/** The embedder could not answer (unreachable endpoint, missing model, bad reply). Search falls back to words. */
export class EmbedderError extends Error {
  override name = "EmbedderError";
}

export function unitLength(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
