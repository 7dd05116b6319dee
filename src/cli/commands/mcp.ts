import { errorMessage } from "../../common/errors.ts";
import { createMcpHandler, serveLines } from "../../mcp/stdio-server.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError } from "../io.ts";

const USAGE = `Usage: cairn mcp [--db PATH]

Serves the index to an agent over MCP on stdin/stdout (started by the agent, not by hand): tools search_history,
session_timeline, get_event, resume_brief, list_threads, thread_timeline and usage. Read-only; runs until stdin closes
or SIGINT/SIGTERM arrives.
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
    // The answers' text reaches a model and, through its client, a terminal: control characters made inert.
    const app = readCairn(io, values.db);
    try {
      app.reader();
    } catch (error) {
      // The server still starts: the agent's tools then say what is wrong, and it opens once 'cairn index' ran.
      io.stderr.write(`cairn mcp: ${errorMessage(error)}\n`);
    }
    const handler = createMcpHandler({ cairn: app });
    // stdout is the protocol channel: a stray console.log from any library would corrupt it.
    const restoreConsole = consoleToStderr();
    try {
      // The protocol needs the process's own streams (a byte stream with backpressure), not the CLI's writers.
      await serveLines(handler, process.stdin, process.stdout, io.signal);
    } finally {
      restoreConsole();
      app.close();
    }
    // Done: the client closed stdin (every answer is written by now) or sent SIGINT/SIGTERM. The process leaves at
    // once rather than when its event loop drains: stdin would keep it alive, and so would a tool call dropped at
    // the signal (a search waiting on an embedder's worker or request). Clients kill a server that lingers.
    process.stdin.destroy();
    process.exit(0);
  },
};

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}
