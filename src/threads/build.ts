/** Builds every thread of the index: sessions folded into units, rare keys found, units joined. */
import type { ReadonlyStore } from "../store/types.ts";
import { hash64 } from "../topology/ids.ts";
import { joinUnits } from "./join.ts";
import { kindOf, type Rarity, rareKeys } from "./rarity.ts";
import { type WorkUnit, type WorkUnits, workUnits } from "./units.ts";

export interface ThreadGroup {
  thread_id: string;
  /** In start order; the first is the thread's earliest session. */
  units: WorkUnit[];
  /** Join keys two or more of the group's units have → those units' indexes. */
  shared: Map<string, number[]>;
  started_at: string | null;
  updated_at: string | null;
}

export interface ThreadIndex {
  groups: ThreadGroup[];
  work: WorkUnits;
  rarity: Rarity;
}

/**
 * The id hashes the earliest session's id: stable while later sessions join, and distinct from session ids so
 * the two are never confused. It changes only if an earlier session is indexed later, or two threads merge.
 */
export function threadIdOf(earliestSessionId: string): string {
  return hash64(`thread:${earliestSessionId}`).slice(0, 12);
}

export function buildThreadIndex(store: ReadonlyStore): ThreadIndex {
  const work = workUnits(store.threadSessions());
  const keyUnits = new Map<string, number[]>();
  for (const link of store.sessionEntityLinks()) {
    if (kindOf(link.entity_id) === null) continue;
    const unit = work.unitOf.get(link.session_id);
    if (!unit) continue;
    const list = keyUnits.get(link.entity_id);
    if (list) list.push(unit.index);
    else keyUnits.set(link.entity_id, [unit.index]);
  }
  // A folded session repeats its root's unit: sort, then drop the repeats.
  for (const [id, list] of keyUnits) {
    list.sort((a, b) => a - b);
    keyUnits.set(
      id,
      list.filter((v, i) => i === 0 || v !== list[i - 1]),
    );
  }

  const rarity = rareKeys(work.units, keyUnits);
  const components = joinUnits(work.units, rarity.rare);
  const groupOf = new Int32Array(work.units.length);
  components.forEach((members, g) => {
    for (const m of members) groupOf[m] = g;
  });

  const groups: ThreadGroup[] = components.map((members) => {
    const units = members.map((m) => work.units[m]!);
    let started: string | null = null;
    let updated: string | null = null;
    for (const u of units) {
      for (const s of [u.root, ...u.folded]) {
        if (s.started_at && (started === null || s.started_at < started)) started = s.started_at;
        const end = s.updated_at ?? s.started_at;
        if (end && (updated === null || end > updated)) updated = end;
      }
    }
    return {
      thread_id: threadIdOf(units[0]!.root.session_id),
      units,
      shared: new Map(),
      started_at: started,
      updated_at: updated,
    };
  });
  for (const [id, members] of rarity.rare) {
    const byGroup = new Map<number, number[]>();
    for (const m of members) {
      const g = groupOf[m]!;
      const list = byGroup.get(g);
      if (list) list.push(m);
      else byGroup.set(g, [m]);
    }
    for (const [g, list] of byGroup) if (list.length >= 2) groups[g]!.shared.set(id, list);
  }
  return { groups, work, rarity };
}
