/**
 * The MCP boundary's one error handler: whatever a tool throws becomes a tool result flagged `isError` with a
 * message the agent can act on (a bad query names its bad part), so a mistake never looks like a broken server.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { QueryError } from "../search/query.ts";
import { type ToolOutput, toolError, toolResult } from "./bounded-output.ts";

export function guarded<A>(run: (args: A) => ToolOutput | Promise<ToolOutput>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return toolResult(await run(args));
    } catch (error) {
      if (error instanceof QueryError) return toolError(`bad query: ${error.message}`);
      return toolError(error instanceof Error ? error.message : String(error));
    }
  };
}

/** Tools only read the index: clients may call them without side effects and repeat them freely. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
