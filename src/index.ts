/**
 * cairn's public library surface. Start with `createCairn()`, the application layer every surface of cairn is
 * built on: it opens the index, resolves ids and answers each question in one shape. The layers below it (readers,
 * topology, the store, the indexer, search, threads, the resume engine) are exported for programs that need them.
 */

export type { BriefJson, BriefRequest } from "./app/brief.ts";
export {
  CAIRN_MODES,
  type Cairn,
  type CairnMode,
  type CairnOptions,
  type CheckpointRequest,
  type CheckpointsAnswer,
  createCairn,
  type EmbedStatus,
  type OverviewAnswer,
  type ReadCairn,
  type SearchAnswer,
  type SearchRequest,
  type SessionsRequest,
  type ThreadTimelineRequest,
  type ThreadTimelineWindow,
} from "./app/cairn.ts";
export type { EventAnswer, ResolvedEdge } from "./app/event.ts";
export type { EmbedRequest, IndexAnswer, IndexRequest, VectorOutcome, WatchRequest } from "./app/indexing.ts";
export type { TimelineRequest, TimelineWindow } from "./app/timeline.ts";
export { cairnVersion } from "./app/version.ts";
export { CairnError, ERROR_CODES, type ErrorCode } from "./common/errors.ts";
export { configuredEmbedder, createEmbedder } from "./embedders/config.ts";
export { createStaticEmbedder } from "./embedders/static.ts";
export type { Embedder, EmbedderConfig } from "./embedders/types.ts";
export { type IndexOptions, type IndexResult, indexFile, indexPaths, indexPathsAsync } from "./indexer/indexer.ts";
export { type CairnMcpServerOptions, createCairnMcpServer } from "./mcp/server.ts";
export * from "./readers/types.ts";
export type { ResumeBrief } from "./resume/brief-types.ts";
export { createResumeEngine, type ResumeEngine, type ResumeOptions } from "./resume/engine.ts";
export { createTokenCounter } from "./resume/tokens.ts";
export { type HybridHit, type HybridResult, searchHybrid } from "./search/hybrid.ts";
export { type SearchHit, type SearchResult, search } from "./search/search.ts";
export type { SessionTimelineRow, TimelineRow } from "./search/timeline.ts";
export { refreshVectors } from "./search/vectors.ts";
export { IdError } from "./store/resolve.ts";
export { openStore } from "./store/sqlite/store.ts";
export type { ReadonlyStore, SessionRow, Store } from "./store/types.ts";
export { listThreads, resolveThread, threadTimeline } from "./threads/index.ts";
export type { Thread } from "./threads/types.ts";
export { cite, citedIds } from "./topology/citation.ts";
export * from "./topology/types.ts";
