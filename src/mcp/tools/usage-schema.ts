/** The zod definitions of `usage`'s input and output, for the SDK server and the test that keeps the JSON schemas (tool-schemas.ts) equal to them. */

import { z } from "zod";
import * as catalog from "../../app/catalog/inputs.ts";
import { USAGE_LIMIT_MAX } from "../limits.ts";

/** The catalog's `usage` input, its limit narrowed to what one answer holds. */
export const inputSchema = {
  by: catalog.usage.by.unwrap().default("day"),
  since: catalog.usage.since,
  until: catalog.usage.until,
  provider: catalog.usage.provider,
  project: catalog.usage.project,
  model: catalog.usage.model,
  session: catalog.usage.session,
  timezone: catalog.usage.timezone,
  week_start: catalog.usage.week_start,
  limit: catalog.usage.limit
    .unwrap()
    .max(USAGE_LIMIT_MAX)
    .default(31)
    .describe(
      `rows to return (1–${USAGE_LIMIT_MAX}): the latest periods, or the costliest sessions, projects, agents or models; the totals count them all`,
    ),
};

const tokens = {
  input: z.number().describe("input tokens neither read from nor written to the cache"),
  output: z.number().describe("output tokens, reasoning included"),
  cache_read: z.number(),
  cache_write: z.number(),
  reasoning: z.number(),
  total: z.number(),
  cost: z.number().describe("US dollars by cairn's price table, over the calls it prices"),
  calls: z.number(),
  unpriced_calls: z.number().describe("calls of a model the price table does not list: cost unknown"),
  recorded_cost: z.number().nullable().describe("what the agents priced their own calls at, where they did (pi)"),
};

const part = z.object({ name: z.string(), total: z.number(), cost: z.number() });

export const group = z.object({
  key: z.string().describe("the day, week start, month, block start, session id, project, agent or model"),
  ...tokens,
  first: z.string().nullable(),
  last: z.string().nullable(),
  by_model: z.array(part).describe("the costliest models of the row"),
  by_agent: z.array(part),
  session: z
    .object({
      session_id: z.string(),
      provider: z.string(),
      kind: z.string(),
      project: z.string().nullable(),
      title: z.string().nullable(),
    })
    .optional(),
});

export const outputSchema = {
  by: z.string(),
  time_zone: z.string(),
  since: z.string().nullable(),
  until: z.string().nullable(),
  totals: z.object(tokens).describe("every call that matched, the rows left out included"),
  groups: z.array(group),
  more: z.number().describe("rows left out (by the limit or the size bound); the totals count them"),
  unpriced_models: z.array(z.object({ model: z.string(), calls: z.number() })),
  agents_without_usage: z.array(z.string()).describe("agents with sessions that recorded no token counts"),
  prices: z.array(z.string()).describe("the price tables used, the last overriding"),
  truncated: z.string().nullable(),
};
