/**
 * A fake model server on 127.0.0.1: every request is logged (path and body head) and answered by the scripted
 * brain in the protocol the path asks for. Requests no protocol knows get a 404 and a log line, which is how a
 * new side request of a newer CLI shows up.
 */
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentScript, playScript } from "./script.ts";
import type { Protocol, Reply } from "./types.ts";

export interface FakeServer {
  url: string;
  port: number;
  requests(): number;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  protocols: Protocol[];
  agent: AgentScript;
  /** The project folder the agent works in (tool paths are absolute in it). */
  dir: string;
  log: string;
  /** Answers paths outside the protocols (model lists, auth probes); null: 404. */
  extra?(method: string, path: string, body: unknown): unknown;
}

/** Anthropic's shape of an overload; the other protocols' clients read its status before its body. */
const OVERLOADED = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };

export function startFakeServer(opts: FakeServerOptions): Promise<FakeServer> {
  let count = 0;
  let overloaded = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      count++;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = raw === "" ? null : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const method = req.method ?? "GET";
      const path = req.url ?? "/";
      const protocol = opts.protocols.find((p) => p.matches(method, path));
      let reply: Reply | null = null;
      let note = "";
      try {
        if (protocol) {
          const conv = protocol.parse(body, path);
          reply = playScript(conv, opts.agent, opts.dir, path, body);
          if (reply.overloaded && !overloaded) {
            overloaded = true;
            res.writeHead(529, { "content-type": "application/json" });
            res.end(JSON.stringify(OVERLOADED));
            note = "overloaded once";
          } else protocol.respond(res, reply, conv, path);
        } else {
          const answer = opts.extra?.(method, path, body);
          if (answer === undefined || answer === null) {
            res.writeHead(404, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { message: "not served by the fake model" } }));
            note = "404";
          } else {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify(answer));
          }
        }
      } catch (error) {
        note = `error: ${error instanceof Error ? error.stack : String(error)}`;
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: note } }));
      }
      appendFileSync(
        opts.log,
        `${JSON.stringify({ n: count, method, path, protocol: protocol?.name ?? null, reply, note, body: raw.slice(0, 400_000) })}\n`,
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests: () => count,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
