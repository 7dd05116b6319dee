/** Raw HTTP and WebSocket clients for the server tests: every header (Host, Origin, Cookie) is under control. */
import { request as httpRequest } from "node:http";
import { WebSocket } from "ws";
import type { ServerFrame } from "../../../src/live/protocol.ts";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function request(
  port: number,
  o: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: o.method ?? "GET", path: o.path ?? "/", headers: o.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

export interface TestSocket {
  ws: WebSocket;
  frames: ServerFrame[];
  /** Each WebSocket message as it came (one frame, or an array of one server turn's frames). */
  messages: string[];
  /** Resolves with the first frame (already received or future) that matches. */
  waitFor(match: (f: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
  closed: Promise<{ code: number; reason: string }>;
  send(value: unknown): void;
}

export function connect(port: number, headers: Record<string, string>): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    const frames: ServerFrame[] = [];
    const messages: string[] = [];
    const listeners = new Set<() => void>();
    ws.on("message", (data) => {
      messages.push(data.toString());
      // One frame, or an array of the frames of one server turn.
      frames.push(...([] as ServerFrame[]).concat(JSON.parse(data.toString()) as ServerFrame | ServerFrame[]));
      for (const l of [...listeners]) l();
    });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.on("close", (code, reason) => r({ code, reason: reason.toString() })),
    );
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        ws,
        frames,
        messages,
        closed,
        send: (value) => ws.send(typeof value === "string" ? value : JSON.stringify(value)),
        waitFor(match, timeoutMs = 5_000) {
          return new Promise((res, rej) => {
            const check = (): boolean => {
              const hit = frames.find(match);
              if (hit) {
                listeners.delete(check as () => void);
                clearTimeout(timer);
                res(hit);
                return true;
              }
              return false;
            };
            const timer = setTimeout(() => {
              listeners.delete(check as () => void);
              rej(new Error(`no matching frame within ${timeoutMs} ms; got ${frames.map((f) => f.kind).join(",")}`));
            }, timeoutMs);
            if (!check()) listeners.add(check as () => void);
          });
        },
      }),
    );
  });
}

/** Tries an upgrade that should be refused and returns the HTTP status. */
export function refusedUpgrade(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("open", () => {
      ws.close();
      reject(new Error("upgrade was accepted"));
    });
    ws.once("error", () => {});
  });
}
