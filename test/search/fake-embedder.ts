/** Deterministic embedders for tests: hashed words, any dimension, optionally failing. */
import { type Embedder, EmbedderError, unitLength } from "../../src/embedders/types.ts";

export function hashingEmbedder(
  id: string,
  dimension: number,
  opts: { fail?: () => boolean } = {},
): Embedder & {
  calls: number;
} {
  const e = {
    id,
    dimension,
    calls: 0,
    async embed(texts: readonly string[]) {
      e.calls++;
      if (opts.fail?.()) throw new EmbedderError(`${id} is down`);
      return texts.map((t) => {
        const v = new Float32Array(dimension);
        for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          let h = 7;
          for (let i = 0; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) >>> 0;
          v[h % dimension]! += 1;
        }
        return unitLength(v);
      });
    },
  };
  return e;
}
