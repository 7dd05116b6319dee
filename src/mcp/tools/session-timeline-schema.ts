/** The zod definitions of `session_timeline`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { timelinePageFields, timelineRowSchema } from "../timeline-row-schema.ts";

/** The catalog's `timeline` input by position or around an event, its rows narrowed to what one answer holds. */
export const inputSchema = {
  session: catalog.timeline.session,
  around: catalog.timeline.around,
  from: catalog.timeline.from,
  to: catalog.timeline.to,
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
