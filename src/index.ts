/**
 * cairn's public library surface: the readers' and topology's types, the store, the indexer, search and the
 * resume engine — what the CLI, the MCP server and the pi extension are built from.
 */
export { type IndexOptions, type IndexResult, indexFile, indexPaths } from "./index/indexer.ts";
export * from "./readers/types.ts";
export type { ResumeBrief } from "./resume/brief-types.ts";
export { createResumeEngine, type ResumeEngine, type ResumeOptions } from "./resume/engine.ts";
export { createTokenCounter } from "./resume/tokens.ts";
export { type SearchHit, type SearchResult, search } from "./search/search.ts";
export { openStore } from "./store/sqlite-store.ts";
export type { Store } from "./store/types.ts";
export * from "./topology/types.ts";
