/**
 * The MCP boundary's one error handler: whatever a tool throws becomes a tool result flagged `isError` with a
 * message the agent can act on (a bad query names its bad part, an ambiguous id lists the candidates, a missing
 * one says which tool finds it), so a mistake never looks like a broken server.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { IdError } from "../app/cairn.ts";
import { errorCode, errorMessage, errorText } from "../common/errors.ts";
import { type ToolOutput, toolError, toolResult } from "./bounded-output.ts";

/** What an agent does about an id that names nothing, by kind, in this server's own tools. */
const FIND: Record<IdError["kind"], string> = {
  session: "search_history hits and resume_brief name sessions",
  event: "search_history finds events by what they say",
  thread: "list_threads (include_single=true) lists threads",
};

export function guarded<A>(run: (args: A) => ToolOutput | Promise<ToolOutput>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return toolResult(await run(args));
    } catch (error) {
      return toolError(describe(error));
    }
  };
}

function describe(error: unknown): string {
  const message = errorMessage(error);
  switch (errorCode(error)) {
    case "bad_query":
      return `bad query: ${message}`;
    case "not_found":
      return error instanceof IdError ? `${message}; ${FIND[error.kind]}` : errorText(error);
    default:
      return errorText(error);
  }
}

/** Tools only read the index: clients may call them without side effects and repeat them freely. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
