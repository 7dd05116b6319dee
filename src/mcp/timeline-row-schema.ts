/** The zod definitions the session and thread timeline tools share: a row as they return it, and their paging. */

import { z } from "zod";
import * as catalog from "../app/catalog/inputs.ts";
import { TIMELINE_ROWS_MAX } from "./limits.ts";

export const timelineRowSchema = z.object({
  event_id: z.string(),
  ordinal: z.number().describe("position in its session (@N)"),
  timestamp: z.string().nullable(),
  event_type: z.string(),
  mark: z
    .string()
    .describe("prompt, reply, call, output, error, test_pass, test_fail, decision, resume, note, file, command"),
  summary: z.string(),
  depth: z.number().describe("1 for rows derived from the row above (errors, tests, decisions)"),
  sidechain: z.boolean(),
  branch_from: z
    .string()
    .nullable()
    .describe("the event this row branches from, when it does not follow the row before"),
  status: z.string().nullable(),
  session_id: z.string().optional(),
  provider: z.string().optional(),
});

/** How many rows a timeline tool shows, and whether file actions and commands get rows of their own. */
export const timelinePageFields = {
  limit: catalog.timeline.limit
    .unwrap()
    .max(TIMELINE_ROWS_MAX)
    .default(40)
    .describe(`rows at most (1–${TIMELINE_ROWS_MAX}); fewer if they would exceed the size bound`),
  all: catalog.timeline.all.unwrap().default(false),
};
