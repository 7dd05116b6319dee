/** The zod definitions of `list_threads`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { THREADS_LIMIT_MAX } from "../limits.ts";

/** The catalog's `threads` input, its limit narrowed to what one answer holds. */
export const inputSchema = {
  project: catalog.threads.project,
  include_single: catalog.threads.include_single.unwrap().default(false),
  limit: catalog.threads.limit
    .unwrap()
    .max(THREADS_LIMIT_MAX)
    .default(10)
    .describe(`threads to return (1–${THREADS_LIMIT_MAX})`),
};

export const thread = z.object({
  thread_id: z.string(),
  label: z.string(),
  label_reason: z.string(),
  started_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  providers: z.array(z.string()),
  projects: z.array(z.string()),
  sessions: z.array(
    z.object({
      session_id: z.string(),
      provider: z.string(),
      kind: z.string(),
      project: z.string().nullable(),
      title: z.string().nullable(),
      started_at: z.string().nullable(),
      updated_at: z.string().nullable(),
      folded_into: z.string().nullable(),
    }),
  ),
  sessions_total: z.number(),
  shared: z.array(z.object({ entity_id: z.string(), kind: z.string(), display: z.string(), sessions: z.number() })),
  shared_total: z.number(),
  shares: z.string().describe("what the thread shares, in words"),
});

export const outputSchema = {
  total: z.number().describe("threads that matched before the limit"),
  threads: z.array(thread),
  truncated: z.string().nullable(),
};
