/**
 * The embedder an eval or a benchmark measures: `--embedder static` or `--embedder <model id>` (a model installed
 * with `cairn models pull`), else the model an index would use here (the best installed), else the static vectors.
 * Evals print which one answered, so two runs are compared knowingly. `choose` stores the choice in an eval's
 * index, so that the application answering its queries embeds them the same way.
 */
import { createModelEmbedder } from "../src/embedders/model-embedder.ts";
import { installedModel, modelsDir, preferredModel } from "../src/embedders/models/installed.ts";
import { EMBEDDER_SETTING } from "../src/embedders/setting.ts";
import { createStaticEmbedder } from "../src/embedders/static.ts";
import type { Embedder, EmbedderConfig } from "../src/embedders/types.ts";

export interface EvalEmbedder {
  embedder: Embedder;
  config: EmbedderConfig;
  /** What the eval's application needs in its environment to find the same model. */
  env: Record<string, string>;
  choose(store: { putSetting(key: string, value: string): void }): void;
}

export function evalEmbedder(argv: readonly string[] = process.argv): EvalEmbedder {
  const at = argv.indexOf("--embedder");
  const wanted = at >= 0 ? argv[at + 1] : undefined;
  const model = wanted === "static" ? null : wanted ? installedModel(process.env, wanted) : preferredModel(process.env);
  if (wanted && wanted !== "static" && !model)
    throw new Error(`--embedder ${wanted}: no such model installed ('cairn models list')`);
  const config: EmbedderConfig = model ? { kind: "model", model: model.manifest.id } : { kind: "static" };
  return {
    embedder: model ? createModelEmbedder(model) : createStaticEmbedder(),
    config,
    env: { CAIRN_MODELS_DIR: modelsDir(process.env) },
    choose: (store) => store.putSetting(EMBEDDER_SETTING, JSON.stringify(config)),
  };
}
