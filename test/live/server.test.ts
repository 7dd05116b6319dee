/**
 * The server over real HTTP and WebSocket on 127.0.0.1: one refused request per item of the security
 * checklist (shared/research/live-protocol.md §6), and the paths that should work.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { parseScript } from "../../src/live/drivers/script-format.ts";
import { createScriptedDriver } from "../../src/live/drivers/scripted.ts";
import type { Envelope, ServerFrame } from "../../src/live/protocol.ts";
import { type LiveServerHandle, startLiveServer } from "../../src/live/server/listen.ts";
import { connect, refusedUpgrade, request } from "./helpers/http.ts";

const script = parseScript(
  JSON.stringify({
    version: 1,
    chunkDelayMs: 0,
    turns: [
      {
        steps: [
          { type: "text", text: "About to run a command." },
          { type: "tool", name: "bash", input: { command: "rm -rf build" }, permission: true, output: "removed" },
          { type: "text", text: "Done." },
        ],
      },
    ],
  }),
);

let web: string;
let server: LiveServerHandle;
let controller: LiveController;
let origin: string;
let cookie: string;
let bearer: Record<string, string>;
/** The server's clock for rate limits: tests move it instead of sleeping. */
let clock = 1_000_000;

beforeAll(async () => {
  if (!script.ok) throw new Error(script.error);
  web = mkdtempSync(join(tmpdir(), "cairn-web-"));
  writeFileSync(join(web, "index.html"), "<!doctype html><title>viewport</title>");
  writeFileSync(join(web, "app.js"), "console.log('hi')");
  controller = createLiveController({ driver: createScriptedDriver({ script: script.script, cwd: web }) });
  server = await startLiveServer({
    controller,
    webRoot: web,
    port: 0,
    now: () => clock,
    limits: {
      maxPayloadBytes: 16 * 1024,
      commandsPerSecond: 5,
      commandBurst: 10,
      maxRateStrikes: 30,
      heartbeatMs: 60_000,
    },
  });
  origin = server.origin;
  bearer = { Authorization: `Bearer ${server.token}` };
  const exchange = await request(server.port, {
    path: `/?token=${server.token}`,
    headers: { Host: `127.0.0.1:${server.port}` },
  });
  cookie = String(exchange.headers["set-cookie"]).split(";")[0]!;
});

afterAll(async () => {
  await server.close();
  await controller.dispose();
  rmSync(web, { recursive: true, force: true });
});

const host = () => ({ Host: `127.0.0.1:${server.port}` });
const browser = () => ({ ...host(), Origin: origin, Cookie: cookie });
const command = (clientMsgId: string, extra: Record<string, unknown> = { type: "interrupt" }) =>
  JSON.stringify({ clientMsgId, ...extra });

describe("cairn serve: authentication", () => {
  it("prints a URL with a 128-bit token and binds loopback", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(Buffer.from(server.token, "base64url")).toHaveLength(16);
    expect(server.exposed).toBe(false);
  });

  it("trades the token for an HttpOnly SameSite=Strict cookie and redirects away from the token", async () => {
    const res = await request(server.port, { path: `/?token=${server.token}`, headers: host() });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/");
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(
      new RegExp(`^cairn_live_${server.port}=[A-Za-z0-9_-]{22}; HttpOnly; SameSite=Strict; Path=/`),
    );
    expect(setCookie).not.toContain(server.token);
    expect(res.headers["referrer-policy"]).toBe("no-referrer");

    const page = await request(server.port, { headers: { ...host(), Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("viewport");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect((await request(server.port, { path: "/app.js", headers: { ...host(), ...bearer } })).status).toBe(200);
  });

  it("refuses a bad token, no token, and paths outside the page", async () => {
    expect((await request(server.port, { path: "/?token=wrong", headers: host() })).status).toBe(401);
    const bare = await request(server.port, { headers: host() });
    expect(bare.status).toBe(401);
    expect(bare.body).toContain("Open the URL that <code>cairn serve</code> printed");
    expect((await request(server.port, { path: "/api/state", headers: host() })).status).toBe(401);
    expect(
      (await request(server.port, { path: "/../../etc/passwd", headers: { ...host(), Cookie: cookie } })).status,
    ).toBe(404);
    const state = await request(server.port, { path: "/api/state", headers: { ...host(), ...bearer } });
    expect(JSON.parse(state.body).state).toMatchObject({ driver: "scripted", status: "idle" });
  });
});

describe("cairn serve: one refused request per checklist item", () => {
  const post = (headers: Record<string, string>, body: string | Buffer = command("c-x")) =>
    request(server.port, { method: "POST", path: "/api/command", headers, body });
  const json = { "Content-Type": "application/json" };

  it("no token", async () => {
    expect((await post({ ...host(), Origin: origin, ...json })).status).toBe(401);
    expect(await refusedUpgrade(server.port, { ...host(), Origin: origin })).toBe(401);
  });

  it("bad token", async () => {
    expect((await post({ ...host(), ...json, Authorization: "Bearer nope" })).status).toBe(401);
    expect(await refusedUpgrade(server.port, { ...host(), Authorization: "Bearer nope" })).toBe(401);
    expect(
      await refusedUpgrade(server.port, { ...host(), Origin: origin, Cookie: `cairn_live_${server.port}=forged` }),
    ).toBe(401);
  });

  it("foreign Origin", async () => {
    const evil = { ...host(), ...json, ...bearer, Cookie: cookie, Origin: "http://evil.example" };
    expect((await post(evil)).status).toBe(403);
    expect(await refusedUpgrade(server.port, evil)).toBe(403);
    expect(await refusedUpgrade(server.port, { ...browser(), Origin: `http://127.0.0.1:${server.port + 1}` })).toBe(
      403,
    );
  });

  it("Origin: null", async () => {
    expect((await post({ ...host(), ...json, ...bearer, Origin: "null" })).status).toBe(403);
    expect(await refusedUpgrade(server.port, { ...host(), ...bearer, Cookie: cookie, Origin: "null" })).toBe(403);
  });

  it("missing Origin without the bearer token", async () => {
    expect((await post({ ...host(), ...json, Cookie: cookie })).status).toBe(401);
    expect(await refusedUpgrade(server.port, { ...host(), Cookie: cookie })).toBe(401);
  });

  it("rebinding Host", async () => {
    const rebound = { Host: `evil.example:${server.port}`, Origin: `http://evil.example:${server.port}` };
    expect((await post({ ...rebound, ...json, ...bearer })).status).toBe(403);
    expect(await refusedUpgrade(server.port, { ...rebound, ...bearer })).toBe(403);
    expect((await request(server.port, { path: `/?token=${server.token}`, headers: rebound })).status).toBe(403);
  });

  it("text/plain POST", async () => {
    const res = await post({ ...browser(), "Content-Type": "text/plain" });
    expect(res.status).toBe(415);
    expect((await post({ ...browser() })).status).toBe(415);
  });

  it("oversized message", async () => {
    expect((await post({ ...browser(), ...json }, "x".repeat(20 * 1024))).status).toBe(413);
    const socket = await connect(server.port, browser());
    socket.send("x".repeat(20 * 1024));
    expect((await socket.closed).code).toBe(1009);
  });

  it("malformed JSON and invalid commands", async () => {
    const res = await post({ ...browser(), ...json }, "{nope");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ kind: "nack", code: "invalid", message: "malformed JSON" });
    const socket = await connect(server.port, browser());
    socket.send("{nope");
    socket.send({ type: "send_message", clientMsgId: "bad-1", text: "" });
    socket.send({ type: "launch_missiles", clientMsgId: "bad-2" });
    await socket.waitFor((f) => f.kind === "nack" && f.clientMsgId === "bad-2");
    const nacks = socket.frames.filter((f) => f.kind === "nack");
    expect(nacks.map((f) => [f.clientMsgId, f.code])).toEqual([
      [null, "invalid"],
      ["bad-1", "invalid"],
      ["bad-2", "invalid"],
    ]);
    socket.ws.close();
  });

  it("flood", async () => {
    const socket = await connect(server.port, browser());
    for (let i = 0; i < 60; i++) socket.send({ type: "interrupt", clientMsgId: `flood-${i}` });
    const closed = await socket.closed;
    expect(closed.code).toBe(1008);
    expect(socket.frames.filter((f) => f.kind === "ack").length).toBeLessThanOrEqual(12);
    expect(socket.frames.some((f) => f.kind === "nack" && f.code === "rate_limited")).toBe(true);

    let limited = 0;
    for (let i = 0; i < 15; i++) {
      if ((await post({ ...browser(), ...json }, command(`http-flood-${i}`))).status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    clock += 60_000; // refill the buckets for the tests that follow
  });
});

describe("cairn serve: viewports", () => {
  it("streams a turn to two tabs; one answers the prompt, the other is told it was answered", async () => {
    const a = await connect(server.port, browser());
    const b = await connect(server.port, { ...host(), ...bearer });
    const helloA = await a.waitFor((f) => f.kind === "hello");
    expect(helloA).toMatchObject({ v: 1, epoch: controller.epoch });
    a.send({ type: "subscribe", clientMsgId: "sub-a" });
    b.send({ type: "subscribe", clientMsgId: "sub-b" });
    await a.waitFor((f) => f.kind === "ack" && f.clientMsgId === "sub-a");
    await b.waitFor((f) => f.kind === "ack" && f.clientMsgId === "sub-b");
    expect(a.frames.find((f) => f.kind === "snapshot")).toBeTruthy();

    a.send({ type: "send_message", clientMsgId: "send-1", text: "clean the build" });
    expect(await a.waitFor((f) => f.kind === "ack" && f.clientMsgId === "send-1")).toMatchObject({
      result: { epoch: controller.epoch },
    });
    const pending = (await b.waitFor((f) => f.kind === "event" && f.event.type === "prompt_pending")) as Envelope;
    if (pending.event.type !== "prompt_pending") throw new Error("unreachable");
    const promptId = pending.event.prompt.id;

    const answer = (id: string, allow: boolean) => ({
      type: "respond_prompt",
      clientMsgId: id,
      promptId,
      response: { kind: "tool_permission", allow },
    });
    a.send(answer("ans-a", true));
    await a.waitFor((f) => f.kind === "ack" && f.clientMsgId === "ans-a");
    b.send(answer("ans-b", false));
    const lost = await b.waitFor((f) => f.kind === "nack" && f.clientMsgId === "ans-b");
    expect(lost).toMatchObject({ code: "already_resolved", resolution: "answered" });
    expect(a.frames.some((f) => f.kind === "nack")).toBe(false);

    const ended = (f: ServerFrame) => f.kind === "event" && f.event.type === "turn_ended";
    await a.waitFor(ended);
    await b.waitFor(ended);
    for (const s of [a, b]) {
      const envelopes = s.frames.filter((f): f is Envelope => f.kind === "event");
      expect(envelopes.map((e) => e.seq)).toEqual(envelopes.map((_, i) => envelopes[0]!.seq + i));
      expect(envelopes.filter((e) => e.event.type === "prompt_resolved")).toHaveLength(1);
    }
    const tool = controller.getSnapshot().view.transcript.find((i) => i.kind === "tool");
    expect(tool).toMatchObject({ status: "done", output: "removed" });

    // A reconnecting tab catches up exactly from where it was.
    const last = a.frames.filter((f): f is Envelope => f.kind === "event").at(-4)!;
    const c = await connect(server.port, browser());
    c.send({ type: "subscribe", clientMsgId: "sub-c", afterSeq: last.seq, epoch: last.epoch });
    expect(await c.waitFor((f) => f.kind === "ack")).toMatchObject({ result: { mode: "replay" } });
    expect(c.frames.filter((f): f is Envelope => f.kind === "event").map((e) => e.seq)).toEqual([
      last.seq + 1,
      last.seq + 2,
      last.seq + 3,
    ]);
    for (const s of [a, b, c]) s.ws.close();
  });

  it("answers the page's heartbeat ping with a pong, and refuses a ping over POST", async () => {
    const socket = await connect(server.port, { ...host(), ...bearer });
    socket.send({ type: "ping", t: 7 });
    expect(await socket.waitFor((f) => f.kind === "pong")).toEqual({ kind: "pong", t: 7 });
    socket.ws.close();
    const res = await request(server.port, {
      method: "POST",
      path: "/api/command",
      headers: { ...host(), ...bearer, "Content-Type": "application/json" },
      body: JSON.stringify({ type: "ping" }),
    });
    expect(res.status).toBe(400);
  });

  it("serves the page for every view's path, and trades a token on any of them", async () => {
    for (const path of [
      "/sessions",
      "/search",
      "/s/abc",
      "/s/abc/brief",
      "/s/abc/conversation",
      "/e/123",
      "/threads",
      "/t/9",
    ]) {
      const page = await request(server.port, { path, headers: { ...host(), Cookie: cookie } });
      expect(page.status, path).toBe(200);
      expect(page.body).toContain("viewport");
      expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    }
    const res = await request(server.port, { path: `/search?q=x&token=${server.token}`, headers: host() });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/search?q=x");
    expect(
      (await request(server.port, { path: "/assets/nope.js", headers: { ...host(), Cookie: cookie } })).status,
    ).toBe(404);
  });

  it("accepts commands over POST with the bearer token", async () => {
    const res = await request(server.port, {
      method: "POST",
      path: "/api/command",
      headers: { ...host(), ...bearer, "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ type: "clear_session", clientMsgId: "clear-1" }),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({
      kind: "ack",
      clientMsgId: "clear-1",
      result: { epoch: controller.epoch },
    });
    const missing = await request(server.port, {
      method: "POST",
      path: "/api/command",
      headers: { ...host(), ...bearer, "Content-Type": "application/json" },
      body: JSON.stringify({
        type: "respond_prompt",
        clientMsgId: "r-404",
        promptId: "gone",
        response: { kind: "tool_permission", allow: true },
      }),
    });
    expect(missing.status).toBe(404);
  });

  it("terminates a half-open socket that stops answering pings", async () => {
    const web2 = mkdtempSync(join(tmpdir(), "cairn-web-"));
    const c2 = createLiveController({
      driver: createScriptedDriver({ script: script.ok ? script.script : ({} as never), cwd: web2 }),
    });
    const s2 = await startLiveServer({ controller: c2, webRoot: web2, limits: { heartbeatMs: 30 } });
    try {
      const socket = await connect(s2.port, { Host: `127.0.0.1:${s2.port}`, Authorization: `Bearer ${s2.token}` });
      expect(s2.app.connections).toBe(1);
      // Stop reading: the client never sees the pings, so it never answers them.
      (socket.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      await vi.waitFor(() => expect(s2.app.connections).toBe(0), { timeout: 5_000 });
    } finally {
      await s2.close();
      await c2.dispose();
      rmSync(web2, { recursive: true, force: true });
    }
  });
});

/** A POST whose body is sent in pieces with no Content-Length (Transfer-Encoding: chunked), as streams send. */
function chunkedPost(port: number, headers: Record<string, string>, pieces: number, size: number) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/command", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"]),
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on("error", reject);
    for (let i = 0; i < pieces; i++) req.write("x".repeat(size));
    req.end();
  });
}

describe("cairn serve: a body over the limit is answered 413, not reset", () => {
  const headers = () => ({ ...browser(), "Content-Type": "application/json" });

  it.each([
    ["chunked, a few times the limit", 16, 4096],
    ["chunked, far over it", 256, 16 * 1024],
  ])("%s", async (_what, pieces, size) => {
    const res = await chunkedPost(server.port, headers(), pieces, size);
    expect(res.status).toBe(413);
    expect(res.type).toContain("application/json");
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("with a Content-Length over the limit", async () => {
    const res = await request(server.port, {
      method: "POST",
      path: "/api/command",
      headers: headers(),
      body: "x".repeat(64 * 1024),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("the server answers the next request as before", async () => {
    const state = await request(server.port, { path: "/api/state", headers: { ...host(), ...bearer } });
    expect(state.status).toBe(200);
  });
});

describe("cairn serve: unknown paths", () => {
  const html = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

  it("a browser's unknown page gets the page (its router shows not found) with 404, never JSON", async () => {
    const res = await request(server.port, { path: "/no/such/view", headers: { ...host(), Cookie: cookie, ...html } });
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("viewport");
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
  });

  it("without the cookie, a browser's unknown page is the token page, not JSON", async () => {
    const res = await request(server.port, { path: "/no/such/view", headers: { ...host(), ...html } });
    expect(res.status).toBe(401);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("Open the URL that <code>cairn serve</code> printed");
  });

  it("an unknown /api/ route, or a program's request, is a JSON 404; a foreign Host is still refused", async () => {
    for (const [path, accept] of [
      ["/api/nope", html],
      ["/nope.js", {}],
    ] as const) {
      const res = await request(server.port, { path, headers: { ...host(), Cookie: cookie, ...accept } });
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body).error.code).toBe("not_found");
    }
    const rebound = { Host: `evil.example:${server.port}`, Cookie: cookie, ...html };
    expect((await request(server.port, { path: "/no/such/view", headers: rebound })).status).toBe(403);
  });
});
