/**
 * Work units: the things threads join. A subagent or `codex exec` session spawned by another session does its
 * parent's work, so it is folded into the parent's unit (its files and errors count as the parent's) instead of
 * joining on its own; otherwise a parent and its helpers would "share" every file they passed between them.
 */
import type { ThreadSessionRow } from "../store/thread-types.ts";
import type { SessionKind } from "../topology/types.ts";

const FOLDED_KINDS: ReadonlySet<SessionKind> = new Set(["subagent", "exec"]);

export interface WorkUnit {
  /** Dense index, used as the unit's id inside the builder. */
  index: number;
  root: ThreadSessionRow;
  /** Sessions folded into the root (not including it), by start time. */
  folded: ThreadSessionRow[];
  /** For a fork: the unit it was forked from (a fork continues that work, so it always shares its thread). */
  forkOf: number | null;
  /** The root's project label, or its working directory when it has none. */
  project: string;
}

export interface WorkUnits {
  units: WorkUnit[];
  /** Session id → the unit it belongs to (its own or the one it is folded into). */
  unitOf: Map<string, WorkUnit>;
}

export function workUnits(sessions: readonly ThreadSessionRow[]): WorkUnits {
  const byId = new Map(sessions.map((s) => [s.session_id, s]));
  const rootCache = new Map<string, ThreadSessionRow>();
  const rootOf = (s: ThreadSessionRow): ThreadSessionRow => {
    const cached = rootCache.get(s.session_id);
    if (cached) return cached;
    let cur = s;
    const seen = new Set<string>();
    // A parent missing from the index leaves the session as its own root; the guard stops a corrupt cycle.
    while (FOLDED_KINDS.has(cur.kind) && cur.parent_session_id && !seen.has(cur.session_id)) {
      seen.add(cur.session_id);
      const parent = byId.get(cur.parent_session_id);
      if (!parent) break;
      cur = parent;
    }
    rootCache.set(s.session_id, cur);
    return cur;
  };

  const units: WorkUnit[] = [];
  const unitOf = new Map<string, WorkUnit>();
  const ordered = [...sessions].sort(byStart);
  for (const s of ordered) {
    if (rootOf(s) !== s) continue;
    const unit: WorkUnit = {
      index: units.length,
      root: s,
      folded: [],
      forkOf: null,
      project: s.project ?? s.cwd ?? "",
    };
    units.push(unit);
    unitOf.set(s.session_id, unit);
  }
  for (const s of ordered) {
    const root = rootOf(s);
    if (root === s) continue;
    const unit = unitOf.get(root.session_id)!;
    unit.folded.push(s);
    unitOf.set(s.session_id, unit);
  }
  for (const unit of units) {
    const parent = unit.root.kind === "fork" && unit.root.parent_session_id;
    const from = parent ? unitOf.get(parent) : undefined;
    if (from && from !== unit) unit.forkOf = from.index;
  }
  return { units, unitOf };
}

/** Start time, then id: the order threads use everywhere, so the same index always gives the same answer. */
export function byStart(a: ThreadSessionRow, b: ThreadSessionRow): number {
  const sa = a.started_at ?? a.updated_at ?? "\uffff";
  const sb = b.started_at ?? b.updated_at ?? "\uffff";
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
}
