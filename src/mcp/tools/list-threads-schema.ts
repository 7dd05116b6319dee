/** The zod definitions of `list_threads`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */
import { z } from "zod";
import { THREADS_LIMIT_MAX } from "../limits.ts";

export const inputSchema = {
  project: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("keep threads with a session in this project (folder name, or part of the working directory)"),
  include_single: z.boolean().default(false).describe("also list sessions that joined nothing, as threads of one"),
  limit: z
    .number()
    .int()
    .min(1)
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
});

export const outputSchema = {
  total: z.number().describe("threads that matched before the limit"),
  threads: z.array(thread),
  truncated: z.string().nullable(),
};
