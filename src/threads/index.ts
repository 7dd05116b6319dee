/** Work threads: what the CLI and the MCP server use. */
export { listThreads, resolveThread } from "./list.ts";
export { type ThreadTimeline, threadTimeline } from "./timeline.ts";
export type {
  ListThreadsOptions,
  ListThreadsResult,
  SharedEntity,
  Thread,
  ThreadLabel,
  ThreadSession,
} from "./types.ts";
