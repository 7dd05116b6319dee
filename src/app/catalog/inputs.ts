/**
 * The inputs of the questions that more than the library asks (the CLI, MCP, the history API), as zod shapes: the
 * one place each field is named, bounded and described. They are converted to JSON schemas when the package is
 * built (`node scripts/catalog-schemas.ts` → data/catalog-schemas.json), which is what runs: the app checks every
 * input against them (`check.ts`) without loading zod, MCP tools serve them (narrowed where a tool bounds its
 * answers tighter: `src/mcp/tool-zod.ts`), and the history API reads its query strings by their types.
 */
import { z } from "zod";
import { SEARCH_MODES } from "../../search/hybrid.ts";
import { USAGE_GROUPINGS } from "../../usage/report.ts";

const sessionRef = z
  .string()
  .min(1)
  .max(200)
  .describe("session id or a unique prefix of one (search hits and briefs name them)");
const eventRef = z.string().min(4).max(100).describe("event id or a unique prefix of one; [e:ID] is accepted");
const time = z.string().min(1).max(64);

export const search = {
  query: z
    .string()
    .min(1)
    .max(100_000)
    .describe('cairn query, e.g. "error: TS2554", "test:fail project:api since:7d", "decision: sqlite"'),
  limit: z.number().int().min(1).max(10_000).optional().describe("hits to return"),
  mode: z
    .enum(SEARCH_MODES)
    .optional()
    .describe("hybrid: words and meaning fused (default); lexical: words only; vector: meaning only"),
  explain: z
    .boolean()
    .optional()
    .describe("each hit's why gives its ranks and similarity (words #1 + meaning #3 (0.52)), not only how it matched"),
};

export const timeline = {
  session: sessionRef.optional(),
  around: eventRef.optional().describe("an event id (or unique prefix): the rows around it; implies its session"),
  from: z.number().int().min(0).optional().describe("first position (@N) to show"),
  to: z.number().int().min(0).optional().describe("last position (@N) to show"),
  since: time.optional().describe("from this time on (2026-11-02, 7d, yesterday)"),
  until: time.optional().describe("up to this time"),
  limit: z.number().int().min(1).max(100_000).optional().describe("rows at most"),
  all: z.boolean().optional().describe("also list file actions and commands as rows of their own"),
};

export const event = {
  event_id: eventRef,
  offset: z.number().int().min(0).optional().describe("first character of the text to return (to page through it)"),
  max_chars: z.number().int().min(1).optional().describe("characters of text to return"),
};

export const eventChain = { event_id: eventRef };

export const brief = {
  session: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('session id, a unique prefix of one, or "latest" (the default)'),
  cwd: z
    .string()
    .min(1)
    .max(4_096)
    .optional()
    .describe("with latest: the project folder whose latest main session to brief (e.g. your working directory)"),
  budget_tokens: z.number().int().min(200).max(500_000).optional().describe("brief size in tokens"),
  ratio: z.number().gt(0).max(1).optional().describe("brief size as a share of the session (e.g. 0.05)"),
  at: eventRef.optional().describe("event id (or prefix): the brief as of that event"),
  step: z.number().int().min(0).optional().describe("the brief as of step N's checkpoint, with that step's profile"),
  cap: z.number().int().min(200).optional().describe("the largest brief the caller accepts (tokens)"),
  ladder: z
    .boolean()
    .optional()
    .describe("false: the brief within the budget even if it misses facts (no larger budget, no earlier checkpoint)"),
  leaf: z.string().min(1).max(200).optional().describe("follow one branch of a session tree up to this event"),
};

export const threads = {
  project: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("keep threads with a session in this project (folder name, or part of the working directory)"),
  include_single: z.boolean().optional().describe("also list sessions that joined nothing, as threads of one"),
  limit: z.number().int().min(1).max(10_000).optional().describe("threads to return"),
};

export const threadTimeline = {
  thread: z.string().min(3).max(100).describe("thread id or a unique prefix of one (the threads list names them)"),
  start_row: z.number().int().min(0).optional().describe("index of the first row to show (0 = the thread's start)"),
  limit: z.number().int().min(1).max(100_000).optional().describe("rows at most"),
  all: z.boolean().optional().describe("also list file actions and commands as rows of their own"),
};

export const sessions = {
  provider: z.array(z.string().min(1).max(40)).max(50).optional().describe("only these agents"),
  project: z.array(z.string().min(1).max(200)).max(50).optional().describe("only these projects"),
  since: time.optional().describe("updated since (2026-11-02, 7d, yesterday)"),
  until: time.optional().describe("started before"),
  all: z
    .boolean()
    .optional()
    .describe("also subagent and exec sessions (they belong to the session that started them)"),
  limit: z.number().int().min(1).max(100_000).optional().describe("sessions to return"),
};

export const session = { session: sessionRef };

export const conversation = {
  session: sessionRef,
  at: eventRef.optional().describe("an event of the session: the answer names the block that shows it"),
};

export const usage = {
  by: z
    .enum(USAGE_GROUPINGS)
    .optional()
    .describe("sum by day (default), week, month, block (5-hour windows), session, project, agent or model"),
  since: time.optional().describe("first day counted (2026-11-02, 20261102, 7d, yesterday), in the time zone"),
  until: time.optional().describe("last day counted, inclusive"),
  provider: z.array(z.string().min(1).max(40)).max(50).optional().describe("only these agents"),
  project: z.array(z.string().min(1).max(200)).max(50).optional().describe("only these projects"),
  model: z
    .array(z.string().min(1).max(200))
    .max(50)
    .optional()
    .describe("only models whose name contains one of these"),
  session: sessionRef.optional().describe("only this session (its subagents with it)"),
  timezone: z.string().min(1).max(64).optional().describe("IANA time zone days are counted in (default: the system's)"),
  week_start: z.enum(["sunday", "monday"]).optional().describe("the day weeks start on (default monday)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe("rows to return: the latest periods, or the costliest rows (the totals count them all)"),
};

/** The inputs by question name. */
export const INPUTS = {
  search,
  conversation,
  timeline,
  event,
  eventChain,
  brief,
  threads,
  threadTimeline,
  sessions,
  session,
  usage,
} satisfies Record<string, z.ZodRawShape>;

export type InputName = keyof typeof INPUTS;
export type Input<N extends InputName> = z.input<z.ZodObject<(typeof INPUTS)[N]>>;
