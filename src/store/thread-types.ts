/** What the work-thread builder (`src/threads/`) reads from the store. Filled by `sqlite-threads.ts`. */
// biome-ignore lint/suspicious/noEmptyInterface: the threads work adds its reads here
export interface ThreadReads {}
