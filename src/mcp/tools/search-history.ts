/** `search_history`: cairn's query language over every indexed session, words and meaning fused. */

import type { z } from "zod";
import { AGENT_NAMES, PROVIDER_CHOICES } from "../../readers/agents.ts";
import type { HybridHit } from "../../search/hybrid.ts";
import { fitRange, jsonSize, listBudget, oneLine } from "../bounded-output.ts";
import { cite, dotted, ID_NOTE, shortTime } from "../format.ts";
import type { CairnTool } from "../tool.ts";
import { READ_ONLY } from "../tool-boundary.ts";
import type { hit, inputSchema } from "./search-history-schema.ts";

export { SEARCH_LIMIT_MAX } from "../limits.ts";

const DESCRIPTION = `Search the indexed history of coding-agent sessions (${AGENT_NAMES}; every project on this machine) for errors, failed tests, decisions, commands, files and words. Use it before re-investigating a problem: "has this failed before, and what fixed it?".
Query language: words and "phrases" (all must match; OR, -word), plus prefixes and filters in any combination:
  error: TEXT (errors, e.g. error: TS2304) · test:fail / test:pass / test: TEXT · decision: TEXT · resume: TEXT · tool:NAME · cmd:COMMAND · file:PATH
  provider:${PROVIDER_CHOICES} · project:NAME · session:ID-PREFIX · since:7d|2026-01-31|yesterday · until:… · kind:error|test|decision|…
Each hit has its event id, session, time, a snippet with matches marked «like this», and its evidence chain (the tool result, call and message behind it). A malformed query is refused with the part that is wrong.`;

type Hit = z.infer<typeof hit>;
type Args = z.infer<z.ZodObject<typeof inputSchema>>;

export const searchHistoryTool: CairnTool<Args> = {
  name: "search_history",
  title: "Search agent history",
  description: DESCRIPTION,
  annotations: READ_ONLY,
  handler:
    (ctx) =>
    async ({ query, limit, mode, explain }) => {
      const result = await ctx.cairn.search({ query, limit, mode, ...(explain ? { explain } : {}) });
      const hits = result.hits.map(toHit);
      const texts = hits.map((h, i) => renderHit(h, i + 1));
      const { end } = fitRange(
        hits.map((h, i) => ({ text: texts[i]!.length + 1, json: jsonSize(h) + 1 })),
        0,
        listBudget(),
      );
      const shown = hits.slice(0, end);
      const truncated =
        end < hits.length
          ? `showing ${end} of ${hits.length} hits to stay within the size bound; narrow the query (a prefix, project:, since:) or lower limit`
          : null;
      const head =
        hits.length === 0
          ? `no matches for ${JSON.stringify(query)}`
          : `${hits.length} hit${hits.length === 1 ? "" : "s"} for ${JSON.stringify(query)} (ranked by ${result.mode === "hybrid" ? "words and meaning" : result.mode === "vector" ? "meaning" : "words"}${result.meaning_by ? `; meaning judged by ${result.meaning_by}` : ""}). ${ID_NOTE}`;
      const lines = [head];
      if (result.notice && mode !== "lexical") lines.push(`note: ${result.notice}`);
      lines.push("", ...texts.slice(0, end));
      if (truncated) lines.push(`… ${truncated}`);
      return {
        text: lines.join("\n"),
        structured: {
          query,
          mode: result.mode,
          notice: result.notice,
          meaning_by: result.meaning_by,
          hits: shown,
          found: hits.length,
          truncated,
        },
      };
    },
};

function toHit(h: HybridHit): Hit {
  return {
    event_id: h.event_id,
    session_id: h.session_id,
    provider: h.provider,
    project: h.project,
    timestamp: h.timestamp,
    event_type: h.event_type,
    status: h.status,
    snippet: oneLine(h.snippet, 400),
    evidence: h.evidence.map((l) => ({ event_id: l.event_id, event_type: l.event_type, text: oneLine(l.text, 120) })),
    why: h.why,
    source_file: h.source_file,
    source_line: h.source_line,
  };
}

function renderHit(h: Hit, n: number): string {
  const head = `${n}. ${cite(h.event_id)} ${dotted(
    `${h.event_type}${h.status ? ` (${h.status})` : ""}`,
    h.provider,
    h.project,
    shortTime(h.timestamp),
    `session ${h.session_id}`,
  )}`;
  const out = [head, `   ${h.snippet}`];
  if (h.evidence.length > 0)
    out.push(
      `   ← ${h.evidence.map((l) => `${l.event_type} ${cite(l.event_id)}${l.text ? ` "${oneLine(l.text, 60)}"` : ""}`).join(" ← ")}`,
    );
  out.push(`   matched by ${h.why}`, "");
  return out.join("\n");
}
