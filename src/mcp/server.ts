/**
 * cairn's MCP server: the index's search, timelines, events, resume briefs and threads as tools an agent can call.
 * Each tool asks the application layer (read-only) and only bounds and formats the answer; the server is
 * transport-free, so `cairn mcp` connects it to stdio and tests may connect it to an in-memory transport.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadCairn } from "../app/cairn.ts";
import { cairnVersion } from "../app/version.ts";
import type { McpContext } from "./context.ts";
import { registerGetEvent } from "./tools/get-event.ts";
import { registerListThreads } from "./tools/list-threads.ts";
import { registerResumeBrief } from "./tools/resume-brief.ts";
import { registerSearchHistory } from "./tools/search-history.ts";
import { registerSessionTimeline } from "./tools/session-timeline.ts";
import { registerThreadTimeline } from "./tools/thread-timeline.ts";

export interface CairnMcpServerOptions {
  /** The application layer to answer from: `createCairn()` (read mode). */
  cairn: ReadCairn;
  version?: string;
}

const INSTRUCTIONS = `cairn indexes the transcripts of Claude Code, Codex and pi sessions on this machine (run 'cairn index' to refresh it) and answers what changed, what failed and where to resume, citing events as [e:ID].
Start with search_history (has this error or test failed before? what was decided about X?) or resume_brief (where did the last session stop?). get_event opens any [e:ID]; session_timeline with around=ID shows its neighbours; list_threads and thread_timeline follow work across sessions and agents. The tools only read the index; results are bounded in size and say how to get what they left out.`;

export function createCairnMcpServer(opts: CairnMcpServerOptions): McpServer {
  const ctx: McpContext = { cairn: opts.cairn };
  const server = new McpServer(
    { name: "cairn", title: "cairn: agent session history", version: opts.version ?? cairnVersion() },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  registerSearchHistory(server, ctx);
  registerSessionTimeline(server, ctx);
  registerGetEvent(server, ctx);
  registerResumeBrief(server, ctx);
  registerListThreads(server, ctx);
  registerThreadTimeline(server, ctx);
  return server;
}
