/**
 * `cairn serve` as a value: request and upgrade handlers over a controller, with no socket of its own.
 * `listen.ts` binds it to a port; tests can do the same on 127.0.0.1:0.
 *
 * Routes:
 *   GET  /?token=…     trade the printed token for the session cookie, then redirect to / (any view's path
 *                      works: /sessions?token=… lands on /sessions)
 *   GET  / , /search … the page, for every view's path (cookie or bearer); /assets/*, /favicon.svg its files
 *   GET  /api/state    state and snapshot as JSON (cookie or bearer)
 *   GET  /api/history/ the index's history as JSON (history-routes.ts)
 *   POST /api/command  one client command as JSON; the reply is the ack or nack
 *   GET  /ws           WebSocket upgrade for viewports
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { AskService } from "../../app/ask-service.ts";
import { parseClientCommand } from "../commands.ts";
import type { LiveController } from "../controller.ts";
import { errorMessage } from "../errors.ts";
import { isPagePath } from "../page-paths.ts";
import type { CommandReply, NackCode } from "../protocol.ts";
import type { QueuedSinkOptions } from "../sink.ts";
import type { AccessPolicy } from "./access.ts";
import { answerAsk } from "./ask-routes.ts";
import { answerHistory } from "./history-routes.ts";
import type { HistoryApp } from "./history-shapes.ts";
import { errorAnswer, HttpError } from "./http-error.ts";
import { createRateLimiter, type RateLimiter } from "./rate-limit.ts";
import type { StaticFiles } from "./static-files.ts";
import { attachViewport, type ViewportConnection } from "./viewport-connection.ts";

export interface LiveAppLimits {
  /** Largest WebSocket message or POST body, in bytes. */
  maxPayloadBytes: number;
  maxConnections: number;
  commandsPerSecond: number;
  commandBurst: number;
  maxRateStrikes: number;
  /** Ping interval; a socket that missed the previous pong is terminated. */
  heartbeatMs: number;
}

export const DEFAULT_LIVE_APP_LIMITS: LiveAppLimits = {
  maxPayloadBytes: 256 * 1024,
  maxConnections: 64,
  commandsPerSecond: 20,
  commandBurst: 40,
  maxRateStrikes: 200,
  heartbeatMs: 20_000,
};

export interface LiveAppDeps {
  controller: LiveController;
  /** The index's history for `/api/history/…` (the application layer, read-only); null when there is none. */
  history?: HistoryApp | null;
  /** Asking the index and AI Resume with the server's model (`/api/ask…`); null or absent: not offered. */
  ask?: AskService | null;
  policy: AccessPolicy;
  web: StaticFiles;
  limits?: Partial<LiveAppLimits>;
  sink?: Partial<QueuedSinkOptions>;
  now?: () => number;
  log?: (message: string) => void;
}

export interface LiveApp {
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly connections: number;
  /** Drops every viewport socket (they reconnect and catch up); for restarts and tests. */
  disconnectAll(code: number, reason: string): void;
  /** Closes every viewport socket and stops the heartbeat. */
  close(): void;
}

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const NACK_STATUS: Record<NackCode, number> = {
  busy: 409,
  stale_epoch: 409,
  already_resolved: 409,
  not_found: 404,
  invalid: 400,
  unauthorized: 401,
  overloaded: 503,
  rate_limited: 429,
  failed: 500,
};

const UNAUTHENTICATED_PAGE = `<!doctype html><meta charset="utf-8"><title>cairn live</title>
<p>This page needs the access token. Open the URL that <code>cairn serve</code> printed in its terminal.</p>`;

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

function rejectUpgrade(socket: Duplex, error: HttpError): void {
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  socket.end(
    `HTTP/1.1 ${error.status} ${error.code}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * A body over the limit is read to its end and dropped, then answered 413: a server that stops reading mid-body
 * resets the connection, and the client sees no answer at all. Past DRAIN_FACTOR times the limit it is answered at
 * once and the connection closed: nobody is owed a patient read of megabytes.
 */
const DRAIN_FACTOR = 16;

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new HttpError(413, "payload_too_large", `bodies are limited to ${limit} bytes`);
    if (Number(req.headers["content-length"] ?? "0") > limit * DRAIN_FACTOR) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit * DRAIN_FACTOR) reject(tooLarge());
      else if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => (size > limit ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
  });
}

export function createLiveApp(deps: LiveAppDeps): LiveApp {
  const { controller, policy, web } = deps;
  const limits = { ...DEFAULT_LIVE_APP_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxPayloadBytes, perMessageDeflate: false });
  const viewports = new Map<WebSocket, ViewportConnection>();
  const alive = new WeakSet<WebSocket>();
  // One bucket for all HTTP commands: a per-connection one would be reset by opening a new connection.
  const httpLimiter: RateLimiter = createRateLimiter({
    perSecond: limits.commandsPerSecond,
    burst: limits.commandBurst,
    now,
  });

  const heartbeat = setInterval(() => {
    for (const socket of viewports.keys()) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, limits.heartbeatMs);
  heartbeat.unref();

  const postCommand = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    policy.checkStateChanging(req);
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      throw new HttpError(415, "unsupported_media_type", "commands must be sent as application/json");
    }
    if (!httpLimiter.take()) throw new HttpError(429, "rate_limited", "too many commands; slow down");
    const parsed = parseClientCommand(await readBody(req, limits.maxPayloadBytes));
    if (!parsed.ok) {
      sendJson(res, 400, { kind: "nack", clientMsgId: parsed.clientMsgId, code: "invalid", message: parsed.message });
      return;
    }
    if (parsed.command.type === "subscribe") {
      throw new HttpError(400, "invalid", "subscribe needs the WebSocket at /ws");
    }
    const reply: CommandReply = await controller.execute(parsed.command, `http-${randomUUID()}`);
    sendJson(res, reply.kind === "ack" ? 200 : NACK_STATUS[reply.code], reply);
  };

  // History goes to a model only on a same-origin, authenticated JSON POST; a closed tab stops the model.
  const postAsk = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    policy.checkStateChanging(req);
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") throw new HttpError(415, "unsupported_media_type", "send application/json");
    if (!httpLimiter.take()) throw new HttpError(429, "rate_limited", "too many requests; slow down");
    const body = await readBody(req, limits.maxPayloadBytes);
    const gone = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    const answer = await answerAsk(deps.ask ?? null, path, body, gone.signal);
    sendJson(res, answer.status, answer.body);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    policy.checkHost(req);
    const url = new URL(req.url ?? "/", "http://placeholder");
    const method = req.method ?? "GET";

    if (url.pathname === "/api/command") {
      if (method !== "POST") throw new HttpError(405, "method_not_allowed", "use POST");
      await postCommand(req, res);
      return;
    }
    if (url.pathname === "/api/ask" || url.pathname === "/api/ask/resume") {
      if (method !== "POST") throw new HttpError(405, "method_not_allowed", "use POST");
      await postAsk(req, res, url.pathname);
      return;
    }
    if (method !== "GET" && method !== "HEAD") {
      throw new HttpError(405, "method_not_allowed", `${method} is not supported here`);
    }
    const token = url.searchParams.get("token");
    if (isPagePath(url.pathname) && token !== null) {
      if (!policy.tokenMatches(token))
        throw new HttpError(401, "unauthorized", "that token is not valid for this server");
      // The redirect drops the token from the address bar and history, and keeps the view it was for.
      url.searchParams.delete("token");
      const location = `${url.pathname}${url.search}`;
      send(res, 303, "text/plain; charset=utf-8", "", { Location: location, "Set-Cookie": policy.sessionCookie() });
      return;
    }
    if (url.pathname.startsWith("/api/history/")) {
      policy.authenticate(req);
      // Reads, but of private history: a page from another origin may not even ask.
      const origin = req.headers.origin;
      if (origin !== undefined && !policy.allowedOrigins().includes(origin)) {
        throw new HttpError(403, "forbidden_origin", `origin ${origin} is not allowed`);
      }
      let segments: string[];
      try {
        segments = url.pathname.slice("/api/history/".length).split("/").map(decodeURIComponent);
      } catch {
        throw new HttpError(400, "usage", "the path is not valid percent-encoding");
      }
      const answer = await answerHistory(deps.history ?? null, segments, url.searchParams);
      sendJson(res, answer.status, answer.body);
      return;
    }
    if (url.pathname === "/api/state") {
      policy.authenticate(req);
      sendJson(res, 200, { state: controller.getState(), snapshot: controller.getSnapshot() });
      return;
    }
    const page = isPagePath(url.pathname);
    // A browser asking for a path that is no file (a mistyped or old link) is shown the page, whose router says
    // not found; a program, and every /api/ path, gets JSON.
    const browsing = !url.pathname.startsWith("/api/") && /\btext\/html\b/.test(req.headers.accept ?? "");
    try {
      policy.authenticate(req);
    } catch (error) {
      if ((page || browsing) && error instanceof HttpError) {
        send(res, 401, "text/html; charset=utf-8", UNAUTHENTICATED_PAGE);
        return;
      }
      throw error;
    }
    if (!web.available) throw new HttpError(503, "not_built", "the viewport page is not built; run `npm run build`");
    // Every view's path is answered with the page; the page's router reads the path.
    const asked = web.read(page ? "/" : url.pathname);
    const file = asked ?? (browsing ? web.read("/") : null);
    if (!file) throw new HttpError(404, "not_found", `no such file: ${url.pathname}`);
    const extra: Record<string, string> = file.type.startsWith("text/html")
      ? { "Content-Security-Policy": PAGE_CSP }
      : {};
    send(res, asked ? 200 : 404, file.type, method === "HEAD" ? "" : file.body, extra);
  };

  return {
    handleRequest(req, res) {
      route(req, res).catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // A body too large may still be arriving: the connection ends with this answer.
        if (error instanceof HttpError && error.status === 413) res.setHeader("Connection", "close");
        const { status, body } = errorAnswer(error);
        if (status === 500) log(`live: request failed: ${errorMessage(error)}`);
        sendJson(res, status, body);
      });
    },
    handleUpgrade(req, socket, head) {
      try {
        if (new URL(req.url ?? "/", "http://placeholder").pathname !== "/ws") {
          throw new HttpError(404, "not_found", "WebSockets are served at /ws");
        }
        policy.checkStateChanging(req);
        if (viewports.size >= limits.maxConnections) {
          throw new HttpError(503, "overloaded", "too many viewports are connected");
        }
      } catch (error) {
        rejectUpgrade(socket, error instanceof HttpError ? error : new HttpError(500, "internal", "internal error"));
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        alive.add(ws);
        ws.on("pong", () => alive.add(ws));
        ws.on("error", (error) => log(`live: viewport socket error: ${errorMessage(error)}`));
        ws.on("close", () => viewports.delete(ws));
        const connection = attachViewport({
          socket: ws,
          controller,
          viewportId: randomUUID(),
          rateLimit: { perSecond: limits.commandsPerSecond, burst: limits.commandBurst },
          maxRateStrikes: limits.maxRateStrikes,
          now,
          ...(deps.sink ? { sink: deps.sink } : {}),
        });
        viewports.set(ws, connection);
      });
    },
    get connections() {
      return viewports.size;
    },
    disconnectAll(code, reason) {
      for (const connection of viewports.values()) connection.close(code, reason);
    },
    close() {
      clearInterval(heartbeat);
      for (const connection of viewports.values()) connection.close(1001, "server shutting down");
      wss.close();
    },
  };
}
