/**
 * pi's session tree (v2 on): each entry names its parent by `parentId`. An entry that became no event is replaced by
 * its own parent (`PiState.alias`), so children point at events that exist.
 */
import type { PiState } from "./state.ts";

/** The tree parent a child should point at: an entry that became no event is replaced by its own parent. */
export function treeParent(s: PiState, parent: string | null): string | null {
  if (parent === null) return null;
  const stand = s.alias[parent];
  // Almost every parent is an event of its own: a plain miss is the fast path.
  return stand === undefined || !Object.hasOwn(s.alias, parent) ? parent : stand;
}
