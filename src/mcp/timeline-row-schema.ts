/** The zod definition of a timeline row as the session and thread timeline tools return it. */
import { z } from "zod";

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
