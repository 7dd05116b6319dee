/** The zod definitions of `search_history`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { SEARCH_LIMIT_MAX } from "../limits.ts";

export const link = z.object({ event_id: z.string(), event_type: z.string(), text: z.string() });
export const hit = z.object({
  event_id: z.string(),
  session_id: z.string(),
  provider: z.string(),
  project: z.string().nullable(),
  timestamp: z.string().nullable(),
  event_type: z.string(),
  status: z.string().nullable(),
  snippet: z.string(),
  evidence: z.array(link),
  why: z.string().describe("how the hit matched: words, some words, meaning, words and meaning"),
  source_file: z.string(),
  source_line: z.number(),
});

/** The catalog's `search` input, its limit narrowed to what one answer holds (`../limits.ts`). */
export const inputSchema = {
  query: catalog.search.query.max(1_000),
  limit: catalog.search.limit
    .unwrap()
    .max(SEARCH_LIMIT_MAX)
    .default(10)
    .describe(`hits to return (1–${SEARCH_LIMIT_MAX}); fewer are shown if they would exceed the size bound`),
  mode: catalog.search.mode.unwrap().default("hybrid"),
  explain: catalog.search.explain.unwrap().default(false),
};

export const outputSchema = {
  query: z.string(),
  mode: z.string().describe("what actually ranked the hits"),
  notice: z.string().nullable().describe("why meaning was not used, when it was not"),
  meaning_by: z
    .string()
    .nullable()
    .describe("the embedder that judged meaning (a sentence model or the static vectors); null for words alone"),
  hits: z.array(hit),
  found: z.number().describe("hits found before the size bound"),
  truncated: z.string().nullable().describe("what was left out and how to get it"),
};
