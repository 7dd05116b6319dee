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

export const EMBEDDER_KINDS = ["static", "openai", "transformers", "none"] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/** What the user chose; stored in the index so every command embeds queries the way the vectors were made. */
export type EmbedderConfig =
  | { kind: "static" }
  | { kind: "none" }
  /** An OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, LM Studio, vLLM, …). */
  | { kind: "openai"; url: string; model: string }
  /** A transformers.js feature-extraction model: a local folder, or a hub id where the machine has internet. */
  | { kind: "transformers"; model: string };

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
