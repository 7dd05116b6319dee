/**
 * The embedder the user chose, as stored in the index (`cairn embed --embedder …`), and the embedder it makes.
 * Stored rather than read from flags each time so that every command embeds queries the way the vectors were made.
 */
import { createOpenAiEmbedder } from "./openai.ts";
import { createStaticEmbedder } from "./static.ts";
import { createThreadedStaticEmbedder } from "./static-threaded.ts";
import { createTransformersEmbedder } from "./transformers.ts";
import { DEFAULT_EMBEDDER, type Embedder, type EmbedderConfig, EmbedderError } from "./types.ts";

export function parseEmbedderConfig(raw: string | null | undefined): EmbedderConfig {
  if (!raw) return DEFAULT_EMBEDDER;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new EmbedderError(`the stored embedder setting is not JSON: ${raw.slice(0, 80)}`);
  }
  const v = value as Record<string, unknown>;
  switch (v["kind"]) {
    case "static":
    case "none":
      return { kind: v["kind"] };
    case "openai":
      if (typeof v["url"] === "string" && typeof v["model"] === "string")
        return { kind: "openai", url: v["url"], model: v["model"] };
      break;
    case "transformers":
      if (typeof v["model"] === "string") return { kind: "transformers", model: v["model"] };
      break;
  }
  throw new EmbedderError(`the stored embedder setting is not valid: ${raw.slice(0, 120)}`);
}

export function describeEmbedder(config: EmbedderConfig): string {
  switch (config.kind) {
    case "static":
      return "static (offline word vectors + code features, built in)";
    case "none":
      return "none (words only)";
    case "openai":
      return `openai-compatible ${config.model} at ${config.url}`;
    case "transformers":
      return `transformers.js ${config.model}`;
  }
}

/** How an embedder will be used: `threads` for a run over many bundles (indexing), which may embed on a worker. */
export interface EmbedderUse {
  threads?: boolean;
}

/** The embedder for a setting, or null for `none`. `env` supplies the API key of remote endpoints. */
export function createEmbedder(
  config: EmbedderConfig,
  env: Record<string, string | undefined> = {},
  cwd?: string,
  use: EmbedderUse = {},
): Embedder | null {
  switch (config.kind) {
    case "none":
      return null;
    case "static":
      return use.threads ? createThreadedStaticEmbedder() : createStaticEmbedder();
    case "openai":
      return createOpenAiEmbedder({
        url: config.url,
        model: config.model,
        apiKey: env["CAIRN_EMBED_API_KEY"] ?? env["OPENAI_API_KEY"],
      });
    case "transformers":
      return createTransformersEmbedder({ model: config.model, cwd });
  }
}

/** The setting under which the chosen embedder is stored in the index. */
export const EMBEDDER_SETTING = "embedder";

export function configuredEmbedder(
  store: { getSetting(key: string): string | null },
  env: Record<string, string | undefined> = {},
  cwd?: string,
  use: EmbedderUse = {},
): { config: EmbedderConfig; embedder: Embedder | null } {
  const config = parseEmbedderConfig(store.getSetting(EMBEDDER_SETTING));
  return { config, embedder: createEmbedder(config, env, cwd, use) };
}
