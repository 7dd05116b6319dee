/**
 * The tools' zod definitions by name: the SDK server validates with them, and a test keeps the JSON schemas that
 * `cairn mcp` serves (tool-schemas.ts) equal to their conversion. `cairn mcp` itself never loads this.
 */
import type { ZodRawShape } from "zod";
import * as getEvent from "./tools/get-event-schema.ts";
import * as listThreads from "./tools/list-threads-schema.ts";
import * as resumeBrief from "./tools/resume-brief-schema.ts";
import * as searchHistory from "./tools/search-history-schema.ts";
import * as sessionTimeline from "./tools/session-timeline-schema.ts";
import * as threadTimeline from "./tools/thread-timeline-schema.ts";
import * as usage from "./tools/usage-schema.ts";

export interface ToolZod {
  inputSchema: ZodRawShape;
  outputSchema: ZodRawShape;
}

export const TOOL_ZOD: Record<string, ToolZod> = {
  search_history: searchHistory,
  session_timeline: sessionTimeline,
  get_event: getEvent,
  resume_brief: resumeBrief,
  list_threads: listThreads,
  thread_timeline: threadTimeline,
  usage,
};
