/** cairn's public library surface. */
export * from "./readers/types.ts";
export * from "./topology/types.ts";
