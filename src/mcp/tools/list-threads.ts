/** `list_threads`: work threads, sessions of any agent joined by the rare files, errors and branches they share. */

import type { z } from "zod";
import { AGENT_NAMES } from "../../readers/agents.ts";
import type { Thread } from "../../threads/types.ts";
import { fitRange, jsonSize, listBudget, oneLine } from "../bounded-output.ts";
import { dotted, shortTime } from "../format.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { inputSchema, thread } from "./list-threads-schema.ts";

const SESSIONS_SHOWN = 12;
const SHARED_SHOWN = 8;

export { THREADS_LIMIT_MAX } from "../limits.ts";

const DESCRIPTION = `List work threads: sessions from any agent (${AGENT_NAMES}) that worked on the same thing, joined because they share at least two rare files, error signatures or branches. Newest first, each labelled open (a check still failing, or the work ended on an error) or closed, with the reason, its sessions and the entities they share. Use it to find the earlier sessions of the work in front of you; thread_timeline shows one thread's events in order, resume_brief briefs one of its sessions.`;

type ThreadData = z.infer<typeof thread>;
type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const listThreadsTool: CairnTool<Args> = {
  name: "list_threads",
  title: "List work threads",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    async ({ project, include_single, limit }) => {
      const result = await ctx.cairn.threads({
        include_single,
        limit,
        ...(project !== undefined ? { project } : {}),
      });
      const threads = result.threads.map(threadData);
      const texts = threads.map(renderThread);
      const { end } = fitRange(
        threads.map((t, i) => ({ text: texts[i]!.length + 1, json: jsonSize(t) + 1 })),
        0,
        listBudget(),
      );
      const truncated =
        end < threads.length
          ? `showing ${end} of ${threads.length} threads to stay within the size bound; lower limit or filter by project`
          : null;
      const head =
        threads.length === 0
          ? `no threads${project ? ` in project ${project}` : ""}${include_single ? "" : " of two or more sessions (include_single lists sessions that joined nothing)"}`
          : `${threads.length} of ${result.total} threads, newest first${include_single ? "" : " (threads of two or more sessions; include_single adds the rest)"}`;
      const lines = [head, "", ...texts.slice(0, end)];
      if (truncated) lines.push(`… ${truncated}`);
      return {
        text: lines.join("\n").trimEnd(),
        structured: { total: result.total, threads: threads.slice(0, end), truncated },
      };
    },
};

function threadData(t: Thread): ThreadData {
  return {
    thread_id: t.thread_id,
    label: t.label,
    label_reason: oneLine(t.label_reason, 300),
    started_at: t.started_at,
    updated_at: t.updated_at,
    providers: t.providers,
    projects: t.projects,
    sessions: t.sessions.slice(0, SESSIONS_SHOWN).map((s) => ({
      session_id: s.session_id,
      provider: s.provider,
      kind: s.kind,
      project: s.project,
      title: s.title === null ? null : oneLine(s.title, 120),
      started_at: s.started_at,
      updated_at: s.updated_at,
      folded_into: s.folded_into,
    })),
    sessions_total: t.sessions.length,
    shared: t.shared
      .slice(0, SHARED_SHOWN)
      .map((e) => ({ entity_id: e.entity_id, kind: e.kind, display: oneLine(e.display, 160), sessions: e.sessions })),
    shared_total: t.shared.length,
    shares: oneLine(t.shares, 300),
  };
}

function renderThread(t: ThreadData): string {
  const out = [
    `thread ${dotted(t.thread_id, t.label, `${shortTime(t.started_at)} → ${shortTime(t.updated_at)}`, t.providers.join(", "), t.projects.join(", "))}`,
    `  ${t.label}: ${t.label_reason}`,
    `  ${t.shares}`,
  ];
  for (const s of t.sessions)
    out.push(
      `  session ${dotted(s.session_id, s.provider, s.kind !== "main" ? s.kind : null, s.project, shortTime(s.started_at), s.title ? `"${oneLine(s.title, 60)}"` : null, s.folded_into ? `part of ${s.folded_into}` : null)}`,
    );
  if (t.sessions_total > t.sessions.length) out.push(`  … ${t.sessions_total - t.sessions.length} more sessions`);
  if (t.shared.length > 0)
    out.push(
      `  shared: ${t.shared.map((e) => `${e.kind} ${e.display} (${e.sessions})`).join("; ")}${t.shared_total > t.shared.length ? `; … ${t.shared_total - t.shared.length} more` : ""}`,
    );
  out.push(`  events: thread_timeline thread=${t.thread_id}`, "");
  return out.join("\n");
}
