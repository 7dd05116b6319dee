/**
 * cairn's MCP server: the index's search, timelines, events, resume briefs and threads as tools an agent can call.
 * Thin adapters over the library; transport-free, so `cairn mcp` connects it to stdio and tests may connect it to
 * an in-memory transport.
 */
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createMcpContext, type McpContextOptions } from "./context.ts";
import { registerGetEvent } from "./tools/get-event.ts";
import { registerListThreads } from "./tools/list-threads.ts";
import { registerResumeBrief } from "./tools/resume-brief.ts";
import { registerSearchHistory } from "./tools/search-history.ts";
import { registerSessionTimeline } from "./tools/session-timeline.ts";
import { registerThreadTimeline } from "./tools/thread-timeline.ts";

export type CairnMcpServerOptions = McpContextOptions & { version?: string };

const INSTRUCTIONS = `cairn indexes the transcripts of Claude Code, Codex and pi sessions on this machine (run 'cairn index' to refresh it) and answers what changed, what failed and where to resume, citing events as [e:ID].
Start with search_history (has this error or test failed before? what was decided about X?) or resume_brief (where did the last session stop?). get_event opens any [e:ID]; session_timeline with around=ID shows its neighbours; list_threads and thread_timeline follow work across sessions and agents. The tools only read the index; results are bounded in size and say how to get what they left out.`;

export function createCairnMcpServer(opts: CairnMcpServerOptions): McpServer {
  const ctx = createMcpContext(opts);
  const server = new McpServer(
    { name: "cairn", title: "cairn: agent session history", version: opts.version ?? packageVersion() },
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

/** This package's version; `src/mcp` and `dist/mcp` are both two levels below the package root. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}
