/**
 * cairn's one error vocabulary, below every layer so that any of them can throw it and every surface can report
 * it the same way: a stable `code` a program can branch on, the message, and a hint that says what to do.
 * Surfaces map codes to their own conventions (the CLI to exit codes, MCP to tool errors) in one place each.
 */

export const ERROR_CODES = [
  /** The command or tool was called wrongly: a missing argument, a bad flag value, a path that does not exist. */
  "usage",
  /** The search query is malformed; the message names the bad part. */
  "bad_query",
  /** An id prefix names more than one session, event or thread; the message lists them. */
  "ambiguous_id",
  /** No session, event or thread has that id. */
  "not_found",
  /** There is no index at the database path yet. */
  "no_index",
  /** The index cannot be opened as it is: written by another version, or unreadable where it lies. */
  "index_unavailable",
  /** Another process holds the index lock for longer than the caller would wait. */
  "index_busy",
  /** A question needs a model and none is configured (`cairn ask`): the hint says how to configure one. */
  "no_model",
  /** The work was interrupted (Ctrl-C). */
  "interrupted",
  /** Anything else that went wrong. */
  "failure",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class CairnError extends Error {
  override name = "CairnError";
  readonly code: ErrorCode;
  /** What to do about it, in one sentence; null when the message says it all. */
  readonly hint: string | null;
  constructor(code: ErrorCode, message: string, hint: string | null = null) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** The message of anything thrown: an Error's message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code of anything thrown: its own for a `CairnError`, `failure` for the rest. */
export function errorCode(error: unknown): ErrorCode {
  return error instanceof CairnError ? error.code : "failure";
}

/** The hint of anything thrown, or null. */
export function errorHint(error: unknown): string | null {
  return error instanceof CairnError ? error.hint : null;
}

/** The message with its hint, for surfaces that show one line: `message; hint`. */
export function errorText(error: unknown): string {
  const hint = errorHint(error);
  return hint ? `${errorMessage(error)}; ${hint}` : errorMessage(error);
}
