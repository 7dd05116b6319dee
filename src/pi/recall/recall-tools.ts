/**
 * Tools that let the agent recall the user's indexed history: search it, and fetch a resume brief. Both only read,
 * and every fact they return carries the event id it came from, so the agent can cite it. They are registered only
 * when a `RecallSource` (cairn's index and resume engine) is available.
 */

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { cite } from "../../topology/citation.ts";
import type { CairnState } from "../state.ts";
import type { RecallHit } from "./recall-source.ts";

export const RECALL_TOOL_NAMES = ["cairn_search", "cairn_resume_brief"] as const;
const MAX_RESULTS = 50;

/** Registers nothing when no recall source is wired in: the model never sees tools that cannot work. */
export function registerRecallTools(pi: ExtensionAPI, state: CairnState): void {
  const source = state.services.recall;
  if (!source) return;
  const { Type } = state.services.host;
  pi.registerTool({
    name: "cairn_search",
    label: "Search history",
    description: `Search the user's indexed coding-agent history (the sessions of every coding agent cairn reads: Claude Code, Codex, pi, Gemini CLI and more; provider: takes the agent's name). Free text plus prefixes decision:, error:, test:, tool:, resume:, file:, cmd: and filters provider:, project:, session:, since:, until:. Each hit is cited as [e:<id>]; cite those ids when you use a hit.`,
    promptSnippet: "Search the user's past agent sessions (cited by event id)",
    parameters: Type.Object({
      query: Type.String({ description: "Search query" }),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_RESULTS, description: "Maximum hits (default 10)" }),
      ),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const sessionFile = ctx.sessionManager.getSessionFile();
      const { hits, meaningBy } = await source.search({
        query: params.query,
        limit: Math.min(params.limit ?? 10, MAX_RESULTS),
        cwd: ctx.cwd,
        ...(sessionFile ? { sessionFile } : {}),
        ...(signal ? { signal } : {}),
      });
      return {
        content: [{ type: "text", text: withStatus(formatHits(params.query, hits, meaningBy), source.status?.()) }],
        details: { eventIds: hits.map((hit) => hit.eventId) },
      };
    },
  });

  pi.registerTool({
    name: "cairn_resume_brief",
    label: "Resume brief",
    description:
      "Get a cited resume brief of a past session (or of this one when no session id is given): goal, constraints, decisions, file states, open failures and where to resume. Lines cite [e:<id>] (an event id).",
    promptSnippet: "Get a cited resume brief of a past session",
    parameters: Type.Object({
      session: Type.Optional(
        Type.String({ description: "Session id from a search hit; omit for the current session" }),
      ),
      budget_tokens: Type.Optional(Type.Integer({ minimum: 200, description: "Token budget for the brief" })),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const sessionFile = ctx.sessionManager.getSessionFile();
      const brief = await source.resumeBrief({
        cwd: ctx.cwd,
        ...(params.session ? { sessionId: params.session } : {}),
        ...(sessionFile ? { sessionFile } : {}),
        ...(params.budget_tokens ? { budgetTokens: params.budget_tokens } : {}),
        ...(signal ? { signal } : {}),
      });
      return {
        content: [{ type: "text", text: withStatus(brief.markdown, source.status?.()) }],
        details: { citedEventIds: [...brief.citedEventIds] },
      };
    },
  });
}

/** One line per hit, each led by its citation. */
export function formatHits(query: string, hits: readonly RecallHit[], meaningBy: string | null = null): string {
  if (hits.length === 0) return `No indexed events match ${JSON.stringify(query)}.`;
  const lines = hits.map((hit) => {
    const evidence = hit.evidence?.length ? ` (evidence: ${hit.evidence.map((id) => cite(id)).join(" ")})` : "";
    return `${cite(hit.eventId)} ${hit.timestamp} ${hit.provider} session ${hit.sessionId} ${hit.kind}: ${hit.snippet}${evidence}`;
  });
  // The hits passed the app's shaping step (index-sources.ts asks createCairn): secrets are markers already.
  // The model is told what judged meaning, as every surface says: a static fallback's "meaning" is weaker evidence.
  const by = meaningBy ? ` (meaning judged by ${meaningBy})` : "";
  return [`${hits.length} hit(s) for ${JSON.stringify(query)}${by}:`, ...lines].join("\n");
}

function withStatus(text: string, status: string | undefined): string {
  return status ? `${text}\n\n(${status})` : text;
}
