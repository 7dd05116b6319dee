/** The zod definitions of `thread_timeline`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */
import { z } from "zod";
import { timelinePageFields, timelineRowSchema } from "../timeline-row-schema.ts";

export const inputSchema = {
  thread: z.string().min(3).max(100).describe("thread id or a unique prefix of one (list_threads names them)"),
  start_row: z.number().int().min(0).optional().describe("index of the first row to show (0 = the thread's start)"),
  ...timelinePageFields,
};

export const outputSchema = {
  thread_id: z.string(),
  label: z.string(),
  sessions: z.array(z.object({ session_id: z.string(), provider: z.string(), project: z.string().nullable() })),
  total_rows: z.number(),
  window: z.object({ start_row: z.number(), end_row: z.number().describe("exclusive") }),
  rows: z.array(timelineRowSchema),
  earlier: z.object({ start_row: z.number() }).nullable(),
  later: z.object({ start_row: z.number() }).nullable(),
  truncated: z.string().nullable(),
};
