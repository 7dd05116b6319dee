/**
 * An OpenAI-compatible `/v1/embeddings` endpoint: OpenAI itself, Ollama (`http://localhost:11434/v1`), LM Studio,
 * vLLM, llama.cpp's server. Texts go in batches; rate limits and server errors are retried a few times with
 * backoff; anything else is an `EmbedderError` (search then falls back to words). The key comes from the
 * environment (`CAIRN_EMBED_API_KEY`, else `OPENAI_API_KEY`) and is never stored.
 */

import { errorMessage } from "../common/errors.ts";
import { type Embedder, EmbedderError, MODEL_FLOOR, unitLength } from "./types.ts";

export interface OpenAiEmbedderOptions {
  /** Base URL up to and including `/v1` (a trailing `/embeddings` is accepted too). */
  url: string;
  model: string;
  apiKey?: string;
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
  fetch?: typeof fetch;
}

const MAX_TEXT_CHARS = 8_000;

export function embeddingsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/embeddings") ? trimmed : `${trimmed}/embeddings`;
}

export function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Embedder {
  const endpoint = embeddingsUrl(opts.url);
  try {
    new URL(endpoint);
  } catch {
    throw new EmbedderError(`not a URL: '${opts.url}' (e.g. http://localhost:11434/v1)`);
  }
  const doFetch = opts.fetch ?? fetch;
  const batchSize = opts.batchSize ?? 64;
  const retries = opts.retries ?? 3;
  let dimension: number | null = null;

  async function post(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.apiKey) headers["authorization"] = `Bearer ${opts.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: "POST",
          headers,
          body: JSON.stringify({ model: opts.model, input }),
          signal: signal
            ? AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs ?? 60_000)])
            : AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
      } catch (error) {
        if (signal?.aborted) throw new EmbedderError("stopped");
        if (attempt < retries) {
          await pause(attempt);
          continue;
        }
        throw new EmbedderError(`cannot reach ${endpoint}: ${errorMessage(error)}`);
      }
      if ((res.status === 429 || res.status >= 500) && attempt < retries) {
        await pause(attempt);
        continue;
      }
      if (!res.ok) {
        const body = (await res.text().catch(() => "")).slice(0, 300);
        throw new EmbedderError(`${endpoint} answered ${res.status}${body ? `: ${body}` : ""}`);
      }
      return parseReply(await res.json().catch(() => null), input.length);
    }
  }

  function parseReply(body: unknown, count: number): Float32Array[] {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== count)
      throw new EmbedderError(`${endpoint} did not return ${count} embeddings`);
    const out: Float32Array[] = new Array(count);
    data.forEach((item: unknown, i) => {
      const { embedding, index } = item as { embedding?: unknown; index?: unknown };
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === "number"))
        throw new EmbedderError(`${endpoint} returned an embedding that is not a list of numbers`);
      const at = typeof index === "number" ? index : i;
      if (dimension !== null && embedding.length !== dimension)
        throw new EmbedderError(`${endpoint} changed dimension from ${dimension} to ${embedding.length}`);
      dimension = embedding.length;
      out[at] = unitLength(Float32Array.from(embedding as number[]));
    });
    if (out.some((v) => v === undefined)) throw new EmbedderError(`${endpoint} returned embeddings out of order`);
    return out;
  }

  return {
    id: `openai:${opts.model}@${endpoint}`,
    floor: MODEL_FLOOR,
    get dimension() {
      return dimension;
    },
    async embed(texts, _purpose, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts
          .slice(i, i + batchSize)
          .map((t) => (t.length > MAX_TEXT_CHARS ? t.slice(0, MAX_TEXT_CHARS) : t));
        out.push(
          ...(await post(
            batch.map((t) => t || " "),
            signal,
          )),
        );
      }
      return out;
    },
  };
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
}
