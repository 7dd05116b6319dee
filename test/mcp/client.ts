/** An MCP client driving the built `cairn mcp` over stdio, with every result checked against the size bound. */
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { MAX_RESPONSE_CHARS } from "../../src/mcp/bounded-output.ts";
import { CLI } from "../helpers/cli.ts";

export type Obj = Record<string, unknown>;

export interface Called {
  text: string;
  data: Obj;
  isError: boolean;
}

export interface McpSession {
  client: Client;
  call(name: string, args?: Obj): Promise<Called>;
  stderr(): string;
  close(): Promise<void>;
}

export async function connectCairn(db: string, env: Record<string, string> = {}): Promise<McpSession> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--db", db],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const client = new Client({ name: "cairn-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: () => client.close(),
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = r.content[0];
      const text = first?.type === "text" ? first.text : "";
      // Both channels are bounded on their own: clients hand the model one or the other.
      expect(text.length).toBeLessThanOrEqual(MAX_RESPONSE_CHARS);
      expect(JSON.stringify(r.structuredContent ?? {}).length).toBeLessThanOrEqual(MAX_RESPONSE_CHARS);
      return { text, data: (r.structuredContent ?? {}) as Obj, isError: r.isError === true };
    },
  };
}
