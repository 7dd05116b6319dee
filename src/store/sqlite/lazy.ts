/**
 * A statement prepared on first use. Opening the index prepared every statement of the store (about ninety), and
 * a command uses a handful: `cairn index` with nothing new, `resume`, a search each paid for the rest
 * (docs/performance.md, fifth round).
 */
export function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    if (made === undefined) made = make();
    return made;
  };
}
