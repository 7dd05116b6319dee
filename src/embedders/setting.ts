/**
 * The embedder the user chose, as the index stores it: read by every command that embeds, and by a no-change
 * `cairn index`, which must not load any embedder to tell whether the stored vectors are the chosen one's.
 */
import { preferredModel } from "./models/installed.ts";
import { DEFAULT_EMBEDDER, type EmbedderConfig, EmbedderError } from "./types.ts";

/** The setting under which the chosen embedder is stored in the index. */
export const EMBEDDER_SETTING = "embedder";

/** A similarity floor: a cosine similarity, from -1 to 1. */
export function isFloor(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= -1 && x <= 1;
}

export function parseEmbedderConfig(raw: string | null | undefined): EmbedderConfig {
  if (!raw) return DEFAULT_EMBEDDER;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new EmbedderError(`the stored embedder setting is not JSON: ${raw.slice(0, 80)}`);
  }
  const v = value as Record<string, unknown>;
  const floor = isFloor(v["floor"]) ? { floor: v["floor"] } : {};
  switch (v["kind"]) {
    case "model":
      if (typeof v["model"] === "string") return { kind: "model", model: v["model"], ...floor };
      break;
    case "static":
      return { kind: "static", ...floor };
    case "none":
      return { kind: "none" };
    case "openai":
      if (typeof v["url"] === "string" && typeof v["model"] === "string")
        return { kind: "openai", url: v["url"], model: v["model"], ...floor };
      break;
    case "transformers":
      if (typeof v["model"] === "string") return { kind: "transformers", model: v["model"], ...floor };
      break;
  }
  throw new EmbedderError(`the stored embedder setting is not valid: ${raw.slice(0, 120)}`);
}

/**
 * The embedder an index uses: the one chosen with `cairn embed --embedder …` (stored in the index), else the best
 * sentence model installed on this machine (`cairn models pull`), else the built-in static vectors. So installing
 * a model is the one step a user takes: the next `cairn index` embeds with it, and searches follow once it has.
 */
export function chosenConfig(setting: string | null, env: Record<string, string | undefined>): EmbedderConfig {
  if (setting) return parseEmbedderConfig(setting);
  const model = preferredModel(env);
  return model ? { kind: "model", model: model.manifest.id } : DEFAULT_EMBEDDER;
}
