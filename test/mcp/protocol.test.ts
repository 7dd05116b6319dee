/**
 * `cairn mcp`'s own JSON-RPC server (src/mcp/stdio-server.ts): its JSON schemas cannot drift from the tools' zod
 * definitions, it lists exactly what the SDK's server lists for the same tools, and it answers malformed input,
 * unknown methods and bad arguments as JSON-RPC 2.0 and MCP say.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { createCairnMcpServer } from "../../src/mcp/server.ts";
import { createMcpHandler } from "../../src/mcp/stdio-server.ts";
import { TOOL_SCHEMAS } from "../../src/mcp/tool-schemas.ts";
import { toolJsonSchemas } from "../../src/mcp/tool-zod-json.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-mcp-protocol-"));
const db = join(dir, "missing.db");
const cairn = createCairn({ db, env: { HOME: dir } });
const handler = createMcpHandler({ cairn, version: "9.9.9" });
afterAll(() => {
  cairn.close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = async (message: unknown) => handler.handle(typeof message === "string" ? message : JSON.stringify(message));
const call = (id: number, method: string, params?: unknown) =>
  ask({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

describe("the tools' JSON schemas", () => {
  it("equal the zod definitions' conversion (rerun `node scripts/mcp-schemas.ts` after changing one)", () => {
    expect(TOOL_SCHEMAS).toEqual(toolJsonSchemas());
  });

  it("are listed as the SDK's server lists the same tools", async () => {
    const server = createCairnMcpServer({ cairn, version: "9.9.9" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "t", version: "0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    const fromSdk = await client.listTools();
    const ours = (await call(1, "tools/list")) as { result: { tools: unknown[] } };
    expect(JSON.parse(JSON.stringify(ours.result.tools))).toEqual(JSON.parse(JSON.stringify(fromSdk.tools)));
    const init = (await call(2, "initialize", { protocolVersion: "2025-06-18", capabilities: {} })) as {
      result: Record<string, unknown>;
    };
    expect(init.result).toMatchObject({
      protocolVersion: "2025-06-18",
      serverInfo: client.getServerVersion(),
      instructions: client.getInstructions(),
      capabilities: client.getServerCapabilities(),
    });
    await client.close();
  });
});

describe("JSON-RPC", () => {
  it("answers ping, and an unknown protocol version with its newest", async () => {
    expect(await call(1, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const init = (await call("x" as unknown as number, "initialize", { protocolVersion: "1999-01-01" })) as {
      id: unknown;
      result: { protocolVersion: string };
    };
    expect(init.id).toBe("x");
    expect(init.result.protocolVersion).toBe("2025-11-25");
  });

  it("says nothing to notifications and to a client's responses", async () => {
    expect(await ask({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeNull();
    expect(await ask({ jsonrpc: "2.0", method: "tools/list" })).toBeNull();
    expect(await ask({ jsonrpc: "2.0", id: 7, result: {} })).toBeNull();
  });

  it("-32700 for a line that is not JSON, -32600 for one that is not a request, -32601 for an unknown method", async () => {
    expect(await ask("{not json")).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await ask({ id: 3, method: "ping" })).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(await ask([{ jsonrpc: "2.0", id: 4, method: "ping" }])).toMatchObject({ error: { code: -32600 } });
    expect(await call(5, "resources/list")).toMatchObject({ id: 5, error: { code: -32601 } });
  });

  it("-32601 for names an object inherits: only the server's own methods are found", async () => {
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"])
      expect(await call(11, method, {})).toEqual({
        jsonrpc: "2.0",
        id: 11,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
  });

  it("a tool named as something an object inherits is an unknown tool", async () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(await call(12, "tools/call", { name, arguments: {} })).toEqual({
        jsonrpc: "2.0",
        id: 12,
        error: { code: -32602, message: `Unknown tool: ${name}` },
      });
  });

  it("-32602 for a call naming no known tool or with params that are not an object", async () => {
    expect(await call(6, "tools/call", { name: "drop_table", arguments: {} })).toMatchObject({
      id: 6,
      error: { code: -32602, message: "Unknown tool: drop_table" },
    });
    expect(await call(7, "tools/call", { arguments: {} })).toMatchObject({ error: { code: -32602 } });
    expect(await call(8, "tools/call", "search_history")).toMatchObject({ error: { code: -32602 } });
  });

  it("arguments outside a tool's schema come back as a tool error that names the field", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["search_history", {}, /query: required/],
      ["search_history", { query: "x", limit: 51 }, /limit: must be at most 50/],
      ["search_history", { query: "x", limit: 2.5 }, /limit: expected an integer/],
      ["search_history", { query: "x", mode: "fuzzy" }, /mode: expected one of hybrid, lexical, vector/],
      ["search_history", { query: "" }, /query: must be at least 1 characters/],
      ["resume_brief", { ratio: 0 }, /ratio: must be more than 0/],
      ["list_threads", { include_single: "yes" }, /include_single: expected true or false/],
      ["get_event", { event_id: 42 }, /event_id: expected a string/],
      ["usage", { by: "fortnight" }, /by: expected one of day, week, month, block, session, project, agent, model/],
      ["usage", { limit: 101 }, /limit: must be at most 100/],
    ];
    for (const [name, args, message] of cases) {
      const r = (await call(9, "tools/call", { name, arguments: args })) as {
        result: { isError: boolean; content: { text: string }[] };
      };
      expect(r.result.isError).toBe(true);
      expect(r.result.content[0]!.text).toMatch(message);
      expect(r.result.content[0]!.text).toMatch(`Invalid arguments for tool ${name}`);
    }
  });

  it("valid arguments reach the tool, whose errors are tool errors too", async () => {
    const r = (await call(10, "tools/call", { name: "search_history", arguments: { query: "timeout", x: 1 } })) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(r.result).toMatchObject({ isError: true });
    expect(r.result.content[0]!.text).toMatch(/^no cairn index at /);
  });
});
