/**
 * Who may talk to `cairn serve`. The checklist in shared/research/live-protocol.md §6 is the bar:
 * - a per-start 128-bit token, printed once in the URL and traded for an HttpOnly SameSite=Strict cookie, or
 *   sent as `Authorization: Bearer` by non-browser clients;
 * - an exact Host allowlist on every request (DNS rebinding makes Origin equal Host, so that is not enough);
 * - an exact Origin allowlist on the WebSocket upgrade and every state-changing request; `Origin: null` is
 *   refused, and a missing Origin (any local process can omit it) needs the bearer token.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.ts";

export function createAccessToken(): string {
  return randomBytes(16).toString("base64url");
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface AccessPolicyOptions {
  /** The secret printed in the URL and accepted as a bearer token. */
  token: string;
  /** The value of the session cookie; separate from the token so the token never sits in a cookie jar. */
  cookieSecret: string;
  /** Host names (no port) this server answers to, e.g. `127.0.0.1`, `localhost`, `[::1]`. */
  hostnames: string[];
  /** The listening port; read on each check because it is known only after `listen`. */
  port: () => number;
}

export type AuthMethod = "cookie" | "bearer";

export interface AccessPolicy {
  readonly cookieName: string;
  tokenMatches(candidate: string): boolean;
  sessionCookie(): string;
  /** Throws unless the Host header names this server. */
  checkHost(req: IncomingMessage): void;
  /** Returns how the request authenticated, or throws 401. */
  authenticate(req: IncomingMessage): AuthMethod;
  /** For the upgrade and every state-changing request: Host, Origin rules, then authentication. */
  checkStateChanging(req: IncomingMessage): AuthMethod;
  allowedOrigins(): string[];
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createAccessPolicy(options: AccessPolicyOptions): AccessPolicy {
  const hostnames = options.hostnames.map((h) => h.toLowerCase());
  const hosts = (): string[] => hostnames.map((h) => `${h}:${options.port()}`);
  const origins = (): string[] => hosts().map((h) => `http://${h}`);

  const bearer = (req: IncomingMessage): string | undefined => {
    const header = req.headers.authorization;
    if (!header?.startsWith("Bearer ")) return undefined;
    return header.slice("Bearer ".length).trim();
  };

  const policy: AccessPolicy = {
    get cookieName() {
      // Cookies ignore ports: two servers on one machine must not overwrite each other's cookie.
      return `cairn_live_${options.port()}`;
    },
    tokenMatches: (candidate) => safeEqual(candidate, options.token),
    sessionCookie() {
      return `${policy.cookieName}=${options.cookieSecret}; HttpOnly; SameSite=Strict; Path=/`;
    },
    checkHost(req) {
      const host = req.headers.host?.toLowerCase();
      if (!host || !hosts().includes(host)) {
        throw new HttpError(403, "forbidden_host", `requests must be addressed to ${hosts().join(" or ")}`);
      }
    },
    authenticate(req) {
      const token = bearer(req);
      if (token !== undefined) {
        if (safeEqual(token, options.token)) return "bearer";
        throw new HttpError(401, "unauthorized", "the bearer token is not valid for this server");
      }
      const cookie = readCookie(req.headers.cookie, policy.cookieName);
      if (cookie !== undefined && safeEqual(cookie, options.cookieSecret)) return "cookie";
      throw new HttpError(
        401,
        "unauthorized",
        "open the URL that `cairn serve` printed, or send its token as a bearer",
      );
    },
    checkStateChanging(req) {
      policy.checkHost(req);
      const origin = req.headers.origin;
      if (origin !== undefined) {
        if (origin === "null")
          throw new HttpError(403, "forbidden_origin", "requests from an opaque origin are refused");
        if (!origins().includes(origin))
          throw new HttpError(403, "forbidden_origin", `origin ${origin} is not allowed`);
        return policy.authenticate(req);
      }
      if (bearer(req) === undefined) {
        throw new HttpError(401, "unauthorized", "requests without an Origin header must carry the bearer token");
      }
      return policy.authenticate(req);
    },
    allowedOrigins: origins,
  };
  return policy;
}
