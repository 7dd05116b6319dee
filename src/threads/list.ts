/** `listThreads` and `resolveThread`: the threads of the index as values for the CLI and the MCP server. */
import { pickById } from "../store/resolve.ts";
import type { ThreadSessionRow } from "../store/thread-types.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { buildThreadIndex, type ThreadGroup, type ThreadIndex } from "./build.ts";
import { describeShared } from "./describe.ts";
import { labelThread } from "./label.ts";
import { kindOf } from "./rarity.ts";
import {
  JOIN_KINDS,
  type ListThreadsOptions,
  type ListThreadsResult,
  type SharedEntity,
  type Thread,
  type ThreadSession,
} from "./types.ts";

/**
 * Threads, most recently updated first. Threads of one session are left out unless `includeSingle`; the project
 * filter keeps threads with at least one session in the project but never changes which sessions join.
 */
export function listThreads(store: ReadonlyStore, opts: ListThreadsOptions = {}): ListThreadsResult {
  const index = buildThreadIndex(store);
  const projects = (opts.project ?? []).filter((p) => p !== "");
  const matching = index.groups
    .filter((g) => opts.includeSingle || g.units.length > 1)
    .filter((g) => projects.length === 0 || g.units.some((u) => inProjects(u.root, projects, u.folded)))
    .sort(byUpdatedDesc);
  const chosen = opts.limit === undefined ? matching : matching.slice(0, Math.max(0, opts.limit));
  return { threads: describeThreads(store, index, chosen), total: matching.length };
}

/** A thread by id or by a prefix that names exactly one (threads of one session included). */
export function resolveThread(store: ReadonlyStore, idOrPrefix: string): Thread {
  const wanted = idOrPrefix.trim().toLowerCase();
  const index = buildThreadIndex(store);
  const group = pickById(
    "thread",
    wanted,
    index.groups.find((g) => g.thread_id === wanted),
    () => index.groups.filter((g) => g.thread_id.startsWith(wanted)).slice(0, 6),
    (g) => g.thread_id,
  );
  return describeThreads(store, index, [group])[0]!;
}

function describeThreads(store: ReadonlyStore, index: ThreadIndex, groups: readonly ThreadGroup[]): Thread[] {
  const entityIds = groups.flatMap((g) => [...g.shared.keys()]);
  const display = new Map(store.entitiesByIds(entityIds).map((e) => [e.entity_id, e.display]));
  const kindRank = (id: string) => JOIN_KINDS.indexOf(kindOf(id)!);
  const endings = store.sessionEndings(groups.flatMap((g) => g.units.map((u) => u.root.session_id)));
  return groups.map((g) => {
    const sessions: ThreadSession[] = [];
    for (const u of g.units) {
      sessions.push(toSession(u.root, null));
      for (const f of u.folded) sessions.push(toSession(f, u.root.session_id));
    }
    const shared: SharedEntity[] = [...g.shared]
      .map(([id, members]) => ({
        entity_id: id,
        kind: kindOf(id)!,
        display: display.get(id) ?? id.slice(id.indexOf(":") + 1),
        sessions: members.length,
        session_ids: members.map((m) => index.work.units[m]!.root.session_id),
      }))
      .sort(
        (a, b) =>
          b.sessions - a.sessions ||
          kindRank(a.entity_id) - kindRank(b.entity_id) ||
          (a.display < b.display ? -1 : a.display > b.display ? 1 : 0),
      );
    const { label, reason } = labelThread(
      g.units.map((u) => u.root),
      endings,
    );
    return {
      thread_id: g.thread_id,
      label,
      label_reason: reason,
      started_at: g.started_at,
      updated_at: g.updated_at,
      providers: [...new Set(sessions.map((s) => s.provider))].sort(),
      projects: [...new Set(sessions.map((s) => s.project).filter((p): p is string => p !== null))].sort(),
      sessions,
      shared,
      shares: describeShared(shared, g.units.length),
    };
  });
}

function toSession(s: ThreadSessionRow, foldedInto: string | null): ThreadSession {
  return { ...s, folded_into: foldedInto };
}

/** The same test `cairn sessions --project` applies: the project name, or a part of the working directory. */
function inProjects(root: ThreadSessionRow, projects: readonly string[], folded: readonly ThreadSessionRow[]) {
  return [root, ...folded].some((s) =>
    projects.some(
      (p) =>
        (s.project !== null && s.project.toLowerCase() === p.toLowerCase()) ||
        s.cwd?.toLowerCase().includes(p.toLowerCase()) === true,
    ),
  );
}

function byUpdatedDesc(a: ThreadGroup, b: ThreadGroup): number {
  const ua = a.updated_at ?? "";
  const ub = b.updated_at ?? "";
  if (ua !== ub) return ua < ub ? 1 : -1;
  return a.thread_id < b.thread_id ? -1 : a.thread_id > b.thread_id ? 1 : 0;
}
