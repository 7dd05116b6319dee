/**
 * The history API over real HTTP: the same access checks as every other route (Host, cookie or bearer, a
 * foreign Origin refused), the application layer's errors as statuses with their code and hint, and a server
 * whose index does not exist yet saying how to make one.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import { request } from "../live/helpers/http.ts";
import { buildHistoryIndex, type HistoryIndex } from "./helpers/history-index.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

let index: HistoryIndex;
let live: TestServer;
let empty: TestServer;

beforeAll(async () => {
  index = await buildHistoryIndex();
  const driver = () => scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] });
  live = await startServer(driver(), { history: index.app });
  empty = await startServer(driver(), { history: createCairn({ db: join(index.dir, "none", "cairn.db"), env: {} }) });
});

afterAll(async () => {
  await live?.close();
  await empty?.close();
  index?.close();
});

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  request(server.server.port, {
    path,
    headers: {
      Host: `127.0.0.1:${server.server.port}`,
      Authorization: `Bearer ${server.server.token}`,
      ...headers,
    },
  });
const body = (r: { body: string }) => JSON.parse(r.body) as Record<string, unknown>;

describe("history API", () => {
  it("answers with the app's data, and refuses what every route refuses", async () => {
    const ok = await get(live, "/api/history/sessions?provider=pi");
    expect(ok.status).toBe(200);
    const listed = JSON.parse(ok.body) as { provider: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((s) => s.provider === "pi")).toBe(true);
    expect(ok.headers["content-type"]).toContain("application/json");

    const noAuth = await request(live.server.port, {
      path: "/api/history/sessions",
      headers: { Host: `127.0.0.1:${live.server.port}` },
    });
    expect(noAuth.status).toBe(401);
    expect((await get(live, "/api/history/sessions", { Host: "evil.example:80" })).status).toBe(403);
    expect((await get(live, "/api/history/sessions", { Origin: "http://evil.example" })).status).toBe(403);
    expect((await get(live, "/api/history/sessions", { Origin: live.server.origin })).status).toBe(200);
  });

  it("turns the app's errors into statuses with their code, message and hint", async () => {
    const bad = await get(live, "/api/history/search?query=provider%3Anope");
    expect(bad.status).toBe(400);
    expect(body(bad)["error"]).toMatchObject({ code: "bad_query" });
    const missing = await get(live, "/api/history/events/ffffffffffffffff");
    expect(missing.status).toBe(404);
    expect(body(missing)["error"]).toMatchObject({ code: "not_found" });
    expect((await get(live, "/api/history/sessions?limit=0")).status).toBe(400);
    expect((await get(live, "/api/history/search")).status).toBe(400);
    expect((await get(live, "/api/history/nothing/here")).status).toBe(404);
    const unknownSession = await get(live, "/api/history/sessions/zzzz/timeline");
    expect(unknownSession.status).toBe(404);
    const several = await get(live, "/api/history/sessions/0/timeline");
    expect(several.status).toBe(409);
    expect(body(several)["error"]).toMatchObject({ code: "ambiguous_id", kind: "session" });
    expect((body(several)["error"] as { candidates: string[] }).candidates.length).toBeGreaterThan(1);
  });

  it("search: no hits for a query nothing is about, ranks only with explain=1", async () => {
    const none = await get(live, "/api/history/search?query=zzzznotthere");
    expect(none.status).toBe(200);
    expect(body(none)["hits"]).toEqual([]);
    const whys = async (path: string) =>
      (body(await get(live, path))["hits"] as Array<{ why: string }>).map((h) => h.why);
    expect((await whys("/api/history/search?query=error%3A%20TS2554&limit=5")).every((w) => !/#\d/.test(w))).toBe(true);
    expect(
      (await whys("/api/history/search?query=error%3A%20TS2554&limit=5&explain=1")).every((w) => /#\d/.test(w)),
    ).toBe(true);
  });

  it("says how to make an index when there is none", async () => {
    const r = await get(empty, "/api/history/sessions");
    expect(r.status).toBe(404);
    expect(body(r)["error"]).toMatchObject({ code: "no_index" });
    expect(JSON.stringify(body(r))).toContain("cairn index");
  });
});
