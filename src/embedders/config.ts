/**
 * The embedder the user chose, as stored in the index (`cairn embed --embedder …`), and the embedder it makes.
 * Stored rather than read from flags each time so that every command embeds queries the way the vectors were made.
 */
import { createOpenAiEmbedder } from "./openai.ts";
import { EMBEDDER_SETTING, parseEmbedderConfig } from "./setting.ts";
import { createStaticEmbedder } from "./static.ts";
import { createThreadedStaticEmbedder } from "./static-threaded.ts";
import { createTransformersEmbedder } from "./transformers.ts";
import type { Embedder, EmbedderConfig } from "./types.ts";

export { EMBEDDER_SETTING, parseEmbedderConfig };

export function describeEmbedder(config: EmbedderConfig): string {
  switch (config.kind) {
    case "static":
      return `static (offline word vectors + code features, built in)${floorOf(config)}`;
    case "none":
      return "none (words only)";
    case "openai":
      return `openai-compatible ${config.model} at ${config.url}${floorOf(config)}`;
    case "transformers":
      return `transformers.js ${config.model}${floorOf(config)}`;
  }
}

const floorOf = (config: { floor?: number }) =>
  config.floor === undefined ? "" : `, similarity floor ${config.floor}`;

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
  const made = embedderOf(config, env, cwd, use);
  // The setting's floor over the embedder's own: everything else (and its getters) comes from the embedder.
  return made && config.kind !== "none" && config.floor !== undefined
    ? (Object.create(made, { floor: { value: config.floor } }) as Embedder)
    : made;
}

function embedderOf(
  config: EmbedderConfig,
  env: Record<string, string | undefined>,
  cwd: string | undefined,
  use: EmbedderUse,
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

export function configuredEmbedder(
  store: { getSetting(key: string): string | null },
  env: Record<string, string | undefined> = {},
  cwd?: string,
  use: EmbedderUse = {},
): { config: EmbedderConfig; embedder: Embedder | null } {
  const config = parseEmbedderConfig(store.getSetting(EMBEDDER_SETTING));
  return { config, embedder: createEmbedder(config, env, cwd, use) };
}
