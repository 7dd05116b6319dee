/**
 * cairn's public library surface: the readers' and topology's types, the store, the indexer, search and the
 * resume engine — what the CLI, the MCP server and the pi extension are built from.
 */

export { configuredEmbedder, createEmbedder } from "./embedders/config.ts";
export type { Embedder, EmbedderConfig } from "./embedders/types.ts";
export { type IndexOptions, type IndexResult, indexFile, indexPaths, indexPathsAsync } from "./indexer/indexer.ts";
export { type CairnMcpServerOptions, createCairnMcpServer } from "./mcp/server.ts";
export * from "./readers/types.ts";
export type { ResumeBrief } from "./resume/brief-types.ts";
export { createResumeEngine, type ResumeEngine, type ResumeOptions } from "./resume/engine.ts";
export { createTokenCounter } from "./resume/tokens.ts";
export { type HybridHit, type HybridResult, searchHybrid } from "./search/hybrid.ts";
export { type SearchHit, type SearchResult, search } from "./search/search.ts";
export { refreshVectors } from "./search/vectors.ts";
export { openStore } from "./store/sqlite-store.ts";
export type { Store } from "./store/types.ts";
export { listThreads, resolveThread, threadTimeline } from "./threads/index.ts";
export * from "./topology/types.ts";
