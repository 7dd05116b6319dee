/** `embedStatus`: the embedder chosen, the one the vectors come from, and how many bundles are embedded. */
import { configuredEmbedder } from "../../embedders/config.ts";
import type { EmbedderConfig } from "../../embedders/types.ts";
import { question } from "./question.ts";

export interface EmbedStatus {
  config: EmbedderConfig;
  embedder: string | null;
  dimension: number | null;
  bundles: number;
  embedded: number;
  queued: number;
  /** Whether the stored vectors come from the configured embedder. */
  current: boolean;
}

export const embedStatus = question({
  name: "embedStatus",
  summary: "the embedder chosen and how much of the index it has embedded",
  answer(ctx, _req: undefined): EmbedStatus {
    const store = ctx.store();
    const { config, embedder } = configuredEmbedder(store, ctx.env, ctx.cwd);
    const state = store.vectorState();
    return { config, ...state, current: embedder !== null && state.embedder === embedder.id };
  },
});
