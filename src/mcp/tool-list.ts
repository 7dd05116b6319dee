/** The tools `cairn mcp` serves, in the order it lists them, and what the server says of itself. */
import type { QuestionName } from "../app/cairn.ts";
import { AGENT_NAMES } from "../readers/agents.ts";
import type { CairnTool } from "./tool.ts";
import { getEventTool } from "./tools/get-event.ts";
import { listThreadsTool } from "./tools/list-threads.ts";
import { resumeBriefTool } from "./tools/resume-brief.ts";
import { searchHistoryTool } from "./tools/search-history.ts";
import { sessionTimelineTool } from "./tools/session-timeline.ts";
import { threadTimelineTool } from "./tools/thread-timeline.ts";
import { usageTool } from "./tools/usage.ts";

/** A tool whose arguments were checked against its schema: each handler is typed by its own schema. */
export type ServedTool = CairnTool<Record<string, unknown>>;

export const CAIRN_TOOLS: readonly ServedTool[] = [
  searchHistoryTool,
  sessionTimelineTool,
  getEventTool,
  resumeBriefTool,
  listThreadsTool,
  threadTimelineTool,
  usageTool,
] as unknown as ServedTool[];

/** The catalog question each tool asks (its input is that question's, narrowed: `tools/*-schema.ts`). */
export const TOOL_QUESTIONS: Record<string, QuestionName> = {
  search_history: "search",
  session_timeline: "timeline",
  get_event: "event",
  resume_brief: "brief",
  list_threads: "threads",
  thread_timeline: "threadTimeline",
  usage: "usage",
};

export const SERVER_TITLE = "cairn: agent session history";

export const INSTRUCTIONS = `cairn indexes the sessions of ${AGENT_NAMES} on this machine (run 'cairn index' to refresh it) and answers what changed, what failed and where to resume, citing events as [e:ID].
Start with search_history (has this error or test failed before? what was decided about X?) or resume_brief (where did the last session stop?). get_event opens any [e:ID]; session_timeline with around=ID shows its neighbours; list_threads and thread_timeline follow work across sessions and agents; usage sums the tokens and cost the agents recorded (by day, week, session, project, agent or model). The tools only read the index; results are bounded in size and say how to get what they left out.`;
