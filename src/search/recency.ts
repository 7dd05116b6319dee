/**
 * Recency words: "last", "latest", "finally", "at the end", "in the end" ask for the latest state of what the other
 * words find, not for events holding those words. They are taken out of the query's terms and turn into an
 * ordering: within each matched session, later events come first, in the places the session's hits held.
 */
/** The parts of a query term this reads (query.ts's TextTerm, which imports this file). */
interface Term {
  text: string;
  phrase: boolean;
  negated: boolean;
  or: boolean;
}

const SINGLE = new Set(["last", "latest", "lastly", "finally", "eventually", "recently", "newest", "currently"]);
const PHRASES = [
  ["at", "the", "end"],
  ["in", "the", "end"],
  ["by", "the", "end"],
];

/** The terms without their recency words, and whether there were any. Quoted and negated words stay as they are. */
export function takeRecency<T extends Term>(terms: readonly T[]): { terms: T[]; recent: boolean } {
  const drop = new Set<number>();
  const bare = (i: number) => terms[i] && !terms[i]!.phrase && !terms[i]!.negated && !terms[i]!.or;
  const word = (i: number) => terms[i]!.text.toLowerCase().replace(/[?.!,]+$/, "");
  for (let i = 0; i < terms.length; i++) {
    if (!bare(i)) continue;
    if (SINGLE.has(word(i))) drop.add(i);
    for (const p of PHRASES)
      if (p.every((w, j) => bare(i + j) && word(i + j) === w)) for (let j = 0; j < p.length; j++) drop.add(i + j);
  }
  // A query of recency words alone ("last") is asking for the word.
  if (drop.size === 0 || drop.size === terms.length) return { terms: [...terms], recent: false };
  return { terms: terms.filter((_, i) => !drop.has(i)), recent: true };
}

/** Hits this close to a session's best (as a share of its relevance) count as equally relevant to it. */
const NEAR = 0.8;

/**
 * Reorders hits so that, within each session, the hits about as relevant as its best come latest first, in the
 * places that session's hits held; the less relevant ones follow in their order. Which sessions rank where is
 * kept, and so is the set of hits. `relevance` is higher for better hits.
 */
export function latestFirst<T>(
  items: readonly T[],
  session: (t: T) => string,
  ordinal: (t: T) => number,
  relevance: (t: T) => number,
): T[] {
  const slots = new Map<string, number[]>();
  items.forEach((t, i) => {
    const s = session(t);
    slots.set(s, [...(slots.get(s) ?? []), i]);
  });
  const out = [...items];
  for (const at of slots.values()) {
    const hits = at.map((i) => items[i]!);
    const best = Math.max(...hits.map(relevance));
    const near = hits.filter((h) => relevance(h) >= best * NEAR).sort((a, b) => ordinal(b) - ordinal(a));
    const rest = hits.filter((h) => !near.includes(h));
    [...near, ...rest].forEach((h, k) => {
      out[at[k]!] = h;
    });
  }
  return out;
}
