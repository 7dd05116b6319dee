/**
 * How near a query is to text nobody's coding history is about: the bar its meaning hits must clear. A sentence
 * model puts any two nonsense strings at a cosine of 0.3 to 0.4, so a query of gibberish finds the hex colours,
 * hashes and stray paths every history holds as near as a real question finds its answer, and one floor for all
 * queries cannot tell them apart. Each query is measured against these background texts instead: a hit counts
 * by meaning only when it is clearly nearer to the query than the nearest background text is. A real question
 * sits far from all of them and keeps the embedder's floor; gibberish or an off-topic question sits near some,
 * and its hits by meaning must beat that.
 */
import type { Embedder } from "../embedders/types.ts";

/** Shapes of text with no subject (keyboard mashes, ids, filler) and subjects far from software work. */
export const BACKGROUND_TEXTS: readonly string[] = [
  "qwerty asdf zxcv",
  "xkq zzvt plom brrf",
  "jjjj kkkk llll",
  "a8f3c2e1 9b7d4f60",
  "#f0c674 #81a2be",
  "/tmp/x/y/z",
  "lorem ipsum dolor sit amet",
  "foo bar baz qux",
  "ok",
  "hmm",
  "yes please",
  "thanks!",
  "hello there, how are you today",
  "what a lovely day it is",
  "a recipe for bread with flour, water, salt and yeast",
  "the football match ended in a draw after extra time",
  "planting tomatoes in the garden in spring",
  "a song with a slow guitar melody",
  "booking a flight and a hotel for the holidays",
  "the weather will be rainy and cold tomorrow",
  "my cat sleeps on the sofa all afternoon",
  "the history of the roman empire",
];

/** How much nearer than the nearest background text a hit must be to count by meaning. */
export const BACKGROUND_MARGIN = 0.12;

const cache = new WeakMap<Embedder, Float32Array[]>();

/**
 * The query's vector, and its similarity to its nearest background text (unit vectors: the dot product). The
 * background is embedded once per embedder, in the same call as the first query: one request to an endpoint.
 */
export async function embedQuery(
  embedder: Embedder,
  text: string,
): Promise<{ vector: Float32Array | undefined; background: number | undefined }> {
  const known = cache.get(embedder);
  const vectors = await embedder.embed(known ? [text] : [text, ...BACKGROUND_TEXTS], "query");
  const vector = vectors[0];
  const background = known ?? vectors.slice(1);
  if (!known && background.length === BACKGROUND_TEXTS.length) cache.set(embedder, background);
  return { vector, background: vector && background.length > 0 ? nearest(background, vector) : undefined };
}

export function nearest(background: readonly Float32Array[], query: Float32Array): number {
  let best = -1;
  for (const v of background) {
    let dot = 0;
    for (let i = 0; i < v.length && i < query.length; i++) dot += v[i]! * query[i]!;
    best = Math.max(best, dot);
  }
  return best;
}
