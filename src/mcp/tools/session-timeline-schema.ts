/** The zod definitions of `session_timeline`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */
import { z } from "zod";
import { timelinePageFields, timelineRowSchema } from "../timeline-row-schema.ts";

export const inputSchema = {
  session: z
    .string()
    .min(4)
    .max(200)
    .optional()
    .describe("session id or a unique prefix of one (search_history hits and resume_brief name them)"),
  around: z
    .string()
    .min(4)
    .max(100)
    .optional()
    .describe("an event id (or unique prefix): show the rows around it; implies its session"),
  from: z.number().int().min(0).optional().describe("first position (@N) to show"),
  to: z.number().int().min(0).optional().describe("last position (@N) to show"),
  ...timelinePageFields,
};

export const session = z.object({
  session_id: z.string(),
  provider: z.string(),
  kind: z.string(),
  project: z.string().nullable(),
  cwd: z.string().nullable(),
  title: z.string().nullable(),
  started_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  events: z.number(),
});

export const outputSchema = {
  session,
  window: z.object({ from: z.number(), to: z.number() }).describe("positions shown"),
  rows: z.array(timelineRowSchema),
  earlier: z.object({ to: z.number() }).nullable().describe("call again with this `to` for the rows before"),
  later: z.object({ from: z.number() }).nullable().describe("call again with this `from` for the rows after"),
  truncated: z.string().nullable(),
};
