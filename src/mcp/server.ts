/**
 * cairn's MCP server on the MCP SDK: the same tools as `cairn mcp` (tool-list.ts), validated by their zod
 * definitions, for a program that embeds cairn and brings its own transport (tests may connect an in-memory one).
 * `cairn mcp` answers stdio through `stdio-server.ts`, which starts without the SDK's schema modules.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadCairn } from "../app/cairn.ts";
import { cairnVersion } from "../app/version.ts";
import type { McpContext } from "./context.ts";
import { guarded } from "./tool-boundary.ts";
import { CAIRN_TOOLS, INSTRUCTIONS, SERVER_TITLE } from "./tool-list.ts";
import { TOOL_ZOD } from "./tool-zod.ts";

export interface CairnMcpServerOptions {
  /** The application layer to answer from: `createCairn()` (read mode). */
  cairn: ReadCairn;
  version?: string;
}

export function createCairnMcpServer(opts: CairnMcpServerOptions): McpServer {
  const ctx: McpContext = { cairn: opts.cairn };
  const server = new McpServer(
    { name: "cairn", title: SERVER_TITLE, version: opts.version ?? cairnVersion() },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  for (const tool of CAIRN_TOOLS) {
    const { inputSchema, outputSchema } = TOOL_ZOD[tool.name]!;
    const { title, description, annotations } = tool;
    server.registerTool(
      tool.name,
      { title, description, inputSchema, outputSchema, annotations },
      guarded(tool.handler(ctx)) as never,
    );
  }
  return server;
}
