/** `search_history`: cairn's query language over every indexed session, words and meaning fused. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type HybridHit, SEARCH_MODES } from "../../search/hybrid.ts";
import { fitRange, jsonSize, listBudget, oneLine } from "../bounded-output.ts";
import type { McpContext } from "../context.ts";
import { cite, dotted, ID_NOTE, shortTime } from "../format.ts";
import { guarded, READ_ONLY } from "../tool-boundary.ts";

export const SEARCH_LIMIT_MAX = 50;

const DESCRIPTION = `Search the indexed history of Claude Code, Codex and pi sessions (every project on this machine) for errors, failed tests, decisions, commands, files and words. Use it before re-investigating a problem: "has this failed before, and what fixed it?".
Query language: words and "phrases" (all must match; OR, -word), plus prefixes and filters in any combination:
  error: TEXT (errors, e.g. error: TS2304) · test:fail / test:pass / test: TEXT · decision: TEXT · resume: TEXT · tool:NAME · cmd:COMMAND · file:PATH
  provider:claude|codex|pi · project:NAME · session:ID-PREFIX · since:7d|2026-01-31|yesterday · until:… · kind:error|test|decision|…
Each hit has its event id, session, time, a snippet with matches marked «like this», and its evidence chain (the tool result, call and message behind it). A malformed query is refused with the part that is wrong.`;

const link = z.object({ event_id: z.string(), event_type: z.string(), text: z.string() });
const hit = z.object({
  event_id: z.string(),
  session_id: z.string(),
  provider: z.string(),
  project: z.string().nullable(),
  timestamp: z.string().nullable(),
  event_type: z.string(),
  status: z.string().nullable(),
  snippet: z.string(),
  evidence: z.array(link),
  why: z.string(),
  source_file: z.string(),
  source_line: z.number(),
});

const inputSchema = {
  query: z
    .string()
    .min(1)
    .max(1_000)
    .describe('cairn query, e.g. "error: TS2554", "test:fail project:api since:7d", "decision: sqlite"'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_LIMIT_MAX)
    .default(10)
    .describe(`hits to return (1–${SEARCH_LIMIT_MAX}); fewer are shown if they would exceed the size bound`),
  mode: z
    .enum(SEARCH_MODES)
    .default("hybrid")
    .describe("hybrid: words and meaning fused (default); lexical: words only; vector: meaning only"),
};

const outputSchema = {
  query: z.string(),
  mode: z.string().describe("what actually ranked the hits"),
  notice: z.string().nullable().describe("why meaning was not used, when it was not"),
  hits: z.array(hit),
  found: z.number().describe("hits found before the size bound"),
  truncated: z.string().nullable().describe("what was left out and how to get it"),
};

type Hit = z.infer<typeof hit>;

export function registerSearchHistory(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "search_history",
    { title: "Search agent history", description: DESCRIPTION, inputSchema, outputSchema, annotations: READ_ONLY },
    guarded(async ({ query, limit, mode }) => {
      const result = await ctx.cairn.search({ query, limit, mode });
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
          : `${hits.length} hit${hits.length === 1 ? "" : "s"} for ${JSON.stringify(query)} (ranked by ${result.mode === "hybrid" ? "words and meaning" : result.mode === "vector" ? "meaning" : "words"}). ${ID_NOTE}`;
      const lines = [head];
      if (result.notice && mode !== "lexical") lines.push(`note: ${result.notice}`);
      lines.push("", ...texts.slice(0, end));
      if (truncated) lines.push(`… ${truncated}`);
      return {
        text: lines.join("\n"),
        structured: { query, mode: result.mode, notice: result.notice, hits: shown, found: hits.length, truncated },
      };
    }),
  );
}

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
