/**
 * `cairn mcp`'s server: MCP's JSON-RPC 2.0 over newline-delimited stdio, answered without the SDK, whose schema
 * modules (zod's protocol types, ajv) cost several times a bare Node start to load (docs/performance.md). It
 * speaks what a tools-only server needs — initialize, ping, tools/list, tools/call; notifications are taken
 * silently — and answers anything else as the specification says: -32700 for a line that is not JSON, -32600 for
 * a message that is not a request or a line over MAX_LINE_BYTES, -32601 for an unknown method (names an object
 * inherits, such as `constructor`, included), -32602 for a call naming no known tool. Arguments
 * that do not match a tool's input schema come back as a tool error, as the SDK's server returns them, so the
 * agent can correct its call. The tools are tool-list.ts's; the SDK server (server.ts) serves the same ones.
 */
import type { ReadCairn } from "../app/cairn.ts";
import { checkArgs } from "../app/catalog/check.ts";
import { cairnVersion } from "../app/version.ts";
import type { McpContext } from "./context.ts";
import { idFromEnds, LineSplitter, MAX_LINE_BYTES } from "./json-lines.ts";
import { guarded } from "./tool-boundary.ts";
import { CAIRN_TOOLS, INSTRUCTIONS, SERVER_TITLE, type ServedTool } from "./tool-list.ts";
import { TOOL_SCHEMAS } from "./tool-schemas.ts";

/** The protocol versions this server speaks, newest first (as the MCP SDK of the tests' client lists them). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

type Id = string | number | null;
type Message = Record<string, unknown>;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export interface McpHandler {
  /** The answer to one line of input, or null when it needs none (a notification, a client's response). */
  handle(line: string): Promise<Message | null>;
}

export function createMcpHandler(opts: { cairn: ReadCairn; version?: string }): McpHandler {
  const ctx: McpContext = { cairn: opts.cairn };
  const tools = new Map(CAIRN_TOOLS.map((tool: ServedTool) => [tool.name, guarded(tool.handler(ctx))]));
  const listed = CAIRN_TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: TOOL_SCHEMAS[t.name]!.inputSchema,
    outputSchema: TOOL_SCHEMAS[t.name]!.outputSchema,
    annotations: t.annotations,
    // Tasks (long-running calls) are not offered: every tool answers at once.
    execution: { taskSupport: "forbidden" },
  }));

  // A Map, not an object: a method named `constructor` or `__proto__` must find nothing, not Object.prototype's.
  const methods = new Map<string, (params: Message) => unknown>(
    Object.entries({
      initialize: (params) => ({
        protocolVersion: PROTOCOL_VERSIONS.includes(String(params["protocolVersion"]))
          ? params["protocolVersion"]
          : PROTOCOL_VERSIONS[0],
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "cairn", title: SERVER_TITLE, version: opts.version ?? cairnVersion() },
        instructions: INSTRUCTIONS,
      }),
      ping: () => ({}),
      "tools/list": () => ({ tools: listed }),
      "tools/call": async (params) => {
        const name = params["name"];
        if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, "tools/call needs a tool name");
        const run = tools.get(name);
        if (!run) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
        const checked = checkArgs(TOOL_SCHEMAS[name]!.inputSchema, params["arguments"]);
        if (!checked.ok)
          return {
            content: [
              { type: "text", text: `Input validation error: Invalid arguments for tool ${name}: ${checked.message}` },
            ],
            isError: true,
          };
        return run(checked.args);
      },
    }),
  );

  return {
    async handle(line) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return failure(null, PARSE_ERROR, "Parse error: a line that is not JSON");
      }
      if (!isObject(message) || message["jsonrpc"] !== "2.0")
        return failure(idOf(message), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
      const method = message["method"];
      const id = idOf(message);
      // A client's answer to a request of ours (we make none), or a notification: nothing to say.
      if (typeof method !== "string") return "id" in message ? null : failure(null, INVALID_REQUEST, "no method");
      if (!("id" in message)) return null;
      const run = methods.get(method);
      if (!run) return failure(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
      const params = message["params"] ?? {};
      if (!isObject(params)) return failure(id, INVALID_PARAMS, "params must be an object");
      try {
        return { jsonrpc: "2.0", id, result: await run(params) };
      } catch (error) {
        if (error instanceof RpcError) return failure(id, error.code, error.message);
        return failure(id, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

function isObject(x: unknown): x is Message {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function idOf(m: unknown): Id {
  const id = isObject(m) ? m["id"] : null;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function failure(id: Id, code: number, message: string): Message {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/**
 * Serves the handler on a byte stream pair, one JSON message a line each way (lines over MAX_LINE_BYTES refused,
 * json-lines.ts). It resolves when the input ends, once every answer still being computed has been handed to the
 * output, or at once when `signal` aborts: the client asked the server to stop, and answers in progress are dropped.
 * Either way it stops reading the input.
 */
export function serveLines(
  handler: McpHandler,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const pending = new Set<Promise<void>>();
    const send = (reply: Message) =>
      new Promise<void>((written) => {
        if (signal?.aborted) return written();
        output.write(`${JSON.stringify(reply)}\n`, () => written());
      });
    const track = (task: Promise<void>) => {
      pending.add(task);
      void task.finally(() => pending.delete(task));
    };
    const lines = new LineSplitter({
      line: (line) => {
        if (line.trim() !== "") track(handler.handle(line).then((reply) => (reply ? send(reply) : undefined)));
      },
      tooLong: (bytes, head, tail) =>
        track(
          send(
            failure(
              idFromEnds(head, tail),
              INVALID_REQUEST,
              `Invalid Request: a line of ${bytes} bytes; requests are limited to ${MAX_LINE_BYTES} bytes a line`,
            ),
          ),
        ),
    });
    const onData = (chunk: string | Buffer) => lines.push(chunk);
    const stopReading = () => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("close", onEnd);
      input.off("error", onEnd);
      input.pause();
    };
    const finish = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    function onEnd() {
      stopReading();
      void Promise.allSettled([...pending]).then(finish);
    }
    function onAbort() {
      stopReading();
      finish();
    }
    input.on("data", onData);
    input.once("end", onEnd);
    input.once("close", onEnd);
    // A read that fails (the client's end of the pipe gone wrong) ends the input as closing it would.
    input.once("error", onEnd);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
