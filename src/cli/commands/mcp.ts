import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { errorMessage } from "../../common/errors.ts";
import { createCairnMcpServer } from "../../mcp/server.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError } from "../io.ts";

const USAGE = `Usage: cairn mcp [--db PATH]

Serves the index to an agent over MCP on stdin/stdout (started by the agent, not by hand): tools search_history,
session_timeline, get_event, resume_brief, list_threads and thread_timeline. Read-only; runs until stdin closes.
Register it with Claude Code:  claude mcp add cairn -- cairn mcp
with Codex (~/.codex/config.toml):  [mcp_servers.cairn]  command = "cairn"  args = ["mcp"]
See docs/mcp.md.`;

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the index to agents over MCP (stdio)",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { db: { type: "string" } }, true);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const app = readCairn(io, values.db);
    try {
      app.reader();
    } catch (error) {
      // The server still starts: the agent's tools then say what is wrong, and it opens once 'cairn index' ran.
      io.stderr.write(`cairn mcp: ${errorMessage(error)}\n`);
    }
    const server = createCairnMcpServer({ cairn: app });
    // stdout is the protocol channel: a stray console.log from any library would corrupt it.
    const restoreConsole = consoleToStderr();
    try {
      // The protocol needs the process's own streams (a byte stream with backpressure), not the CLI's writers.
      await server.connect(new StdioServerTransport(process.stdin, process.stdout));
      await untilClosed(server.server, io.signal);
      await server.close();
      return 0;
    } finally {
      restoreConsole();
      app.close();
    }
  },
};

/** Resolves when the client closes stdin or the connection, or on Ctrl-C / SIGTERM. */
function untilClosed(server: { onclose?: (() => void) | undefined }, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.stdin.off("end", done);
      process.stdin.off("close", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      done();
    };
    process.stdin.once("end", done);
    process.stdin.once("close", done);
    if (signal?.aborted) done();
    else signal?.addEventListener("abort", done, { once: true });
  });
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}
