/**
 * Stands between a real MCP client and `cairn mcp` (test/mcp/real-clients.test.ts): the client starts this as its
 * server, and this starts the server's command and reports to the test, over a socket, when the client closed the
 * server's stdin or signalled it, and how and how soon after that the server exited. A client that has to kill the
 * server kills this too (SIGKILL cannot be caught), and then the exit report never comes.
 *
 * The server gets what the client sends and nothing more: stdin is relayed (to see it close), stdout and stderr are
 * the client's own, and each SIGINT, SIGTERM or SIGHUP is passed on once. It runs in its own process group, so a
 * client that signals this process group does not signal it twice.
 *
 * Usage: node watch-server.ts PORT NAME COMMAND [ARG...]
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";

const [port, name, command, ...args] = process.argv.slice(2);
if (!port || !name || !command) throw new Error("usage: watch-server.ts PORT NAME COMMAND [ARG...]");

const report = connect(Number(port), "127.0.0.1");
const send = (event: Record<string, unknown>) => report.write(`${JSON.stringify({ name, ...event })}\n`);

const server = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"], detached: true });
send({ event: "started", pid: server.pid });
let asked: number | null = null;
const ask = (how: string) => {
  asked ??= performance.now();
  send({ event: how });
};

process.stdin.on("data", (chunk: Buffer) => server.stdin.write(chunk));
process.stdin.on("end", () => {
  ask("stdin closed");
  server.stdin.end();
});
// The server may leave before it has read everything; what it did not read is no concern of the test.
server.stdin.on("error", () => {});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => {
    ask(signal);
    server.kill(signal);
  });

server.on("exit", (code, signal) => {
  const afterMs = asked === null ? null : Math.round(performance.now() - asked);
  send({ event: "exit", code, signal, afterMs });
  report.end(() => process.exit(code ?? 1));
});
