/** What `cairn` (no arguments) shows after indexing: sessions per agent and project, the latest ones, and what is still failing in them. */
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import { WORK_KINDS } from "../topology/types.ts";
import { type OpenFailure, openFailures } from "./sessions.ts";

export interface Overview {
  /** Sessions of people's work (main ones, forks, `codex exec` runs; `WORK_KINDS`): what the rest lists. */
  sessions: number;
  /** Sessions an agent ran inside another's work (subagents), not listed. */
  inner_sessions: { subagent: number };
  events: number;
  by_agent: Array<{ provider: string; sessions: number; projects: Array<{ project: string; sessions: number }> }>;
  recent: Array<{ session: SessionRow; open_failures: OpenFailure[] }>;
}

export function buildOverview(store: ReadonlyStore, recentCount = 5): Overview {
  const all = store.listSessions({ kinds: [...WORK_KINDS] });
  const counts = store.counts();
  const agents = new Map<string, Map<string, number>>();
  for (const s of all) {
    const projects = agents.get(s.provider) ?? new Map<string, number>();
    const p = s.project ?? "(no folder)";
    projects.set(p, (projects.get(p) ?? 0) + 1);
    agents.set(s.provider, projects);
  }
  const byAgent = [...agents]
    .map(([provider, projects]) => ({
      provider,
      sessions: [...projects.values()].reduce((a, b) => a + b, 0),
      projects: [...projects]
        .map(([project, sessions]) => ({ project, sessions }))
        .sort((a, b) => b.sessions - a.sessions || a.project.localeCompare(b.project)),
    }))
    .sort((a, b) => b.sessions - a.sessions || a.provider.localeCompare(b.provider));
  const recent = all
    .slice(0, recentCount)
    .map((session) => ({ session, open_failures: openFailures(store, session.session_id) }));
  // Subagents are part of their parent's work; the overview lists the sessions of people's work and counts the
  // others, so its total agrees with what `cairn index` reported.
  const inner_sessions = { subagent: store.listSessions({ kinds: ["subagent"] }).length };
  return { sessions: all.length, inner_sessions, events: counts.events, by_agent: byAgent, recent };
}
