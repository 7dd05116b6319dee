/** The zod definitions of `thread_timeline`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { timelinePageFields, timelineRowSchema } from "../timeline-row-schema.ts";

/** The catalog's `threadTimeline` input, its rows narrowed to what one answer holds. */
export const inputSchema = {
  thread: catalog.threadTimeline.thread,
  start_row: catalog.threadTimeline.start_row,
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
