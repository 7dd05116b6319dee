/**
 * The embedder the user chose, as stored in the index (`cairn embed --embedder …`), and the embedder it makes.
 * Stored rather than read from flags each time so that every command embeds queries the way the vectors were made.
 */
import { createModelEmbedder } from "./model-embedder.ts";
import { installedModel } from "./models/installed.ts";
import { createOpenAiEmbedder } from "./openai.ts";
import { chosenConfig, EMBEDDER_SETTING, parseEmbedderConfig } from "./setting.ts";
import { createStaticEmbedder } from "./static.ts";
import { createThreadedStaticEmbedder } from "./static-threaded.ts";
import { createTransformersEmbedder } from "./transformers.ts";
import { type Embedder, type EmbedderConfig, EmbedderError } from "./types.ts";

export { chosenConfig, EMBEDDER_SETTING, parseEmbedderConfig };

export function describeEmbedder(config: EmbedderConfig): string {
  switch (config.kind) {
    case "model":
      return `sentence model ${config.model} (installed with 'cairn models pull', runs here)${floorOf(config)}`;
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
    case "model": {
      const model = installedModel(env, config.model);
      return model ? createModelEmbedder(model) : missingModel(config.model);
    }
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
  const config = chosenConfig(store.getSetting(EMBEDDER_SETTING), env);
  return { config, embedder: createEmbedder(config, env, cwd, use) };
}

/** A chosen model this machine does not have: it answers nothing, so search goes on by words and says why. */
function missingModel(id: string): Embedder {
  return {
    id: `model:${id}`,
    dimension: null,
    embed() {
      return Promise.reject(
        new EmbedderError(`the model ${id} is not installed here: 'cairn models pull ${id}' installs it`),
      );
    },
  };
}
