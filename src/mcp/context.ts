/** What every cairn MCP tool is given: the application layer, read-only (the server never changes the index). */
import type { ReadCairn } from "../app/cairn.ts";

export interface McpContext {
  cairn: ReadCairn;
}
