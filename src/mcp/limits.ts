/** The bounds of the tools' inputs: kept apart from their schemas so the server path loads no schema library. */
export const SEARCH_LIMIT_MAX = 50;
export const TIMELINE_ROWS_MAX = 200;
export const EVENT_CHARS_MAX = 12_000;
export const BRIEF_TOKENS_MAX = 4_000;
export const THREADS_LIMIT_MAX = 50;
export const USAGE_LIMIT_MAX = 100;
