/** The zod definitions of `resume_brief`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { BRIEF_TOKENS_MAX } from "../limits.ts";

/** The catalog's `brief` input, its size narrowed to what one answer holds; the library's cap and leaf are not offered. */
export const inputSchema = {
  session: catalog.brief.session,
  cwd: catalog.brief.cwd,
  budget_tokens: catalog.brief.budget_tokens
    .unwrap()
    .min(500)
    .max(BRIEF_TOKENS_MAX)
    .optional()
    .describe(`brief size in tokens (500–${BRIEF_TOKENS_MAX})`),
  ratio: catalog.brief.ratio.describe(
    `brief size as a share of the session (e.g. 0.05), capped at ${BRIEF_TOKENS_MAX} tokens`,
  ),
  at: catalog.brief.at,
  step: catalog.brief.step,
};

export const outputSchema = {
  session_id: z.string(),
  session_short: z.string().describe("the fewest leading characters of session_id that name the session"),
  at: z.string().describe("the event the brief is as of"),
  step: z.number().nullable(),
  budget_tokens: z.number(),
  tokens: z.number(),
  original_tokens: z.number().describe("estimated tokens of the session up to `at`"),
  ratio: z.number(),
  text: z.string().describe("the brief (markdown), citing events as [e:ID]"),
  sections: z.array(z.object({ name: z.string(), tokens: z.number(), items: z.number(), cites: z.array(z.string()) })),
  citations: z
    .array(
      z.object({
        event_id: z.string(),
        ordinal: z.number(),
        event_type: z.string(),
        source_file: z.string(),
        source_line: z.number(),
      }),
    )
    .describe("the cited events in timeline order, as many as fit beside the text"),
  citations_total: z.number(),
  validation: z.object({
    ok: z.boolean(),
    coverage: z.number(),
    entity_overlap: z.number(),
    missing: z.array(z.string()),
  }),
  fallback: z.array(
    z.object({
      step: z.string(),
      budget_tokens: z.number(),
      at: z.string(),
      tokens: z.number(),
      validation: z.object({
        ok: z.boolean(),
        coverage: z.number(),
        entity_overlap: z.number(),
        missing: z.array(z.string()),
      }),
    }),
  ),
  source: z.object({ file: z.string(), first_line: z.number(), last_line: z.number() }),
  budget_note: z.string().nullable(),
  truncated: z.string().nullable(),
};
