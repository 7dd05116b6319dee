/**
 * One cairn MCP tool, free of any schema library: its name, what it says to the agent, and its handler over
 * arguments already checked against its input schema (defaults filled). Both servers serve the same list:
 * `stdio-server.ts` with the JSON schemas of `tool-schemas.ts`, `server.ts` (the SDK's) with the zod definitions
 * they are checked against.
 */

import type { ToolOutput } from "./bounded-output.ts";
import type { McpContext } from "./context.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface CairnTool<A> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  handler(ctx: McpContext): (args: A) => ToolOutput | Promise<ToolOutput>;
}
