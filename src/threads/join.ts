/**
 * Joining: two units join when they share at least `MIN_SHARED_KEYS` join keys, and threads are the connected
 * components of that relation. One shared key is too often chance (the same error in two projects, one file
 * looked at in passing); two independent coincidences are rare. Between units of different repositories only keys
 * that name one piece of work count (`specific.ts`): generic error text shared by two projects is no link. A fork
 * always joins the unit it was forked from.
 */
import { linksRepositories, sameRepository } from "./specific.ts";
import type { WorkUnit } from "./units.ts";

export const MIN_SHARED_KEYS = 2;

/** Groups of unit indexes, each ascending; groups in order of their first unit. */
export function joinUnits(units: readonly WorkUnit[], rare: ReadonlyMap<string, readonly number[]>): number[][] {
  const parent = units.map((u) => u.index);
  const find = (i: number): number => {
    let r = i;
    while (parent[r]! !== r) r = parent[r]!;
    // Path compression keeps later finds flat.
    while (parent[i]! !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };

  // Rare keys have at most a dozen units each, so counting every pair per key stays small.
  const n = units.length;
  const pairs = new Map<number, number>();
  for (const [id, members] of rare) {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const a = units[members[i]!]!;
        const b = units[members[j]!]!;
        if (!sameRepository(a, b) && !linksRepositories(id, a, b)) continue;
        const key = members[i]! * n + members[j]!;
        const count = (pairs.get(key) ?? 0) + 1;
        pairs.set(key, count);
        if (count === MIN_SHARED_KEYS) union(members[i]!, members[j]!);
      }
    }
  }
  for (const u of units) if (u.forkOf !== null) union(u.index, u.forkOf);

  const groups = new Map<number, number[]>();
  for (const u of units) {
    const r = find(u.index);
    const g = groups.get(r);
    if (g) g.push(u.index);
    else groups.set(r, [u.index]);
  }
  return [...groups.values()].sort((a, b) => a[0]! - b[0]!);
}
