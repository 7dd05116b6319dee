/**
 * The CLI's one error handler and its documented exit codes (docs/cli.md): 0 ok; 1 no results (search, as grep
 * does) or a failure; 2 a usage mistake; 3 no model configured (ask); 130 interrupted. Under --json an error is
 * one JSON object on stdout,
 * `{ "error": { "code", "message", "hint" } }`; otherwise one line on stderr, a hint, and for a usage mistake a
 * pointer to --help.
 */
import { terminalText } from "../app/shape/terminal-text.ts";
import { type ErrorCode, errorCode, errorHint, errorMessage } from "../common/errors.ts";
import type { CliIo } from "./io.ts";

export const EXIT = { ok: 0, noResults: 1, failure: 1, usage: 2, noModel: 3, interrupted: 130 } as const;

export const EXIT_CODES: Record<ErrorCode, number> = {
  usage: EXIT.usage,
  bad_query: EXIT.usage,
  ambiguous_id: EXIT.usage,
  not_found: EXIT.failure,
  no_index: EXIT.failure,
  index_unavailable: EXIT.failure,
  index_busy: EXIT.failure,
  no_model: EXIT.noModel,
  interrupted: EXIT.interrupted,
  failure: EXIT.failure,
};

export interface ErrorJson {
  error: { code: ErrorCode; message: string; hint: string | null };
}

export function errorJson(error: unknown): ErrorJson {
  return { error: { code: errorCode(error), message: errorMessage(error), hint: errorHint(error) } };
}

/** Reports what a command threw and returns its exit code. `command` is e.g. `search`, or null for cairn itself. */
export function reportError(io: CliIo, command: string | null, error: unknown, json: boolean): number {
  const code = errorCode(error);
  if (json) io.stdout.write(`${JSON.stringify(errorJson(error), null, 2)}\n`);
  else {
    const who = command ? `cairn ${command}` : "cairn";
    const prefix = code === "bad_query" ? "bad query: " : "";
    // A message quotes what it was given (an id, a query, a path): made inert like any text bound for a terminal.
    io.stderr.write(`${who}: ${prefix}${terminalText(errorMessage(error))}\n`);
    const hint = errorHint(error);
    if (hint) io.stderr.write(`hint: ${terminalText(hint)}\n`);
    if (code === "usage" || code === "bad_query") io.stderr.write(`Run '${who} --help' for usage.\n`);
    if (code === "failure" && io.env["CAIRN_DEBUG"] && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
  }
  return EXIT_CODES[code];
}
