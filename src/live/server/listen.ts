/** Binds the live app to a port. The only file here that opens a socket. */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AskService } from "../../app/ask-service.ts";
import type { LiveController } from "../controller.ts";
import type { QueuedSinkOptions } from "../sink.ts";
import { createAccessPolicy, createAccessToken } from "./access.ts";
import { createLiveApp, type LiveApp, type LiveAppLimits } from "./app.ts";
import type { HistoryApp } from "./history-shapes.ts";
import { createStaticFiles } from "./static-files.ts";

export const LOOPBACK_HOSTNAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

export interface StartLiveServerOptions {
  controller: LiveController;
  /** The index's history for the page's history views; omitted or null when there is none. */
  history?: HistoryApp | null;
  /** Asking the index with the server's model; omitted or null when not offered. */
  ask?: AskService | null;
  /** The built viewport page (dist/web). */
  webRoot: string;
  /** Defaults to 127.0.0.1. Anything else exposes an agent that can run commands; the CLI warns. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Defaults to a fresh 128-bit token. */
  token?: string;
  limits?: Partial<LiveAppLimits>;
  sink?: Partial<QueuedSinkOptions>;
  log?: (message: string) => void;
  /** The clock for rate limits and back-pressure timeouts. */
  now?: () => number;
}

export interface LiveServerHandle {
  /** Open this once: it carries the token, which the page trades for a cookie. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** True when bound to something other than a loopback address. */
  exposed: boolean;
  app: LiveApp;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export async function startLiveServer(options: StartLiveServerOptions): Promise<LiveServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? createAccessToken();
  const server = createServer();
  const port = (): number => (server.address() as AddressInfo | null)?.port ?? 0;
  const hostnames: string[] = [...LOOPBACK_HOSTNAMES];
  if (!hostnames.includes(urlHost(host).toLowerCase())) hostnames.push(urlHost(host).toLowerCase());
  const policy = createAccessPolicy({ token, cookieSecret: randomBytes(16).toString("base64url"), hostnames, port });
  const app = createLiveApp({
    controller: options.controller,
    history: options.history ?? null,
    ask: options.ask ?? null,
    policy,
    web: createStaticFiles(options.webRoot),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.sink ? { sink: options.sink } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  server.on("request", app.handleRequest);
  server.on("upgrade", app.handleUpgrade);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const origin = `http://${urlHost(host)}:${port()}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port: port(),
    token,
    exposed: !isLoopback(host),
    app,
    async close() {
      app.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
