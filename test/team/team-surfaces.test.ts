/**
 * The MCP server and the web server's history views on a team index, each through the built CLI against a real
 * PostgreSQL server: an MCP search tool call answers from it, and `cairn serve --db postgres://…` answers the
 * sessions and search API with its loopback token.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLI, cairn } from "../helpers/cli.ts";
import { type PgCluster, pgSkipReason, startPg } from "../helpers/postgres.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { request } from "../live/helpers/http.ts";
import { connectCairn } from "../mcp/client.ts";

const skip = pgSkipReason();
if (skip) console.warn(`team index surface tests skipped: ${skip}`);

const REPO = join(import.meta.dirname, "../..");

describe.skipIf(skip !== null)(
  "mcp and serve on a team index",
  () => {
    let pg: PgCluster;
    let dir: string;
    const env = () => ({ HOME: join(dir, "home"), CAIRN_MACHINE: "laptop-a" });

    beforeAll(async () => {
      pg = await startPg();
      dir = mkdtempSync(join(tmpdir(), "cairn-team-surf-"));
      cpSync(realFixturesDir(), join(dir, "t"), { recursive: true });
      const r = cairn(["index", "--json", "--db", pg.url, join(dir, "t")], { env: env() });
      if (r.code !== 0) throw new Error(`index failed: ${r.stderr}`);
    }, 300_000);

    afterAll(() => {
      pg?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("mcp: search_history answers from PostgreSQL, and its hits resolve with get_event", async () => {
      const mcp = await connectCairn(pg.url, env());
      try {
        const r = await mcp.call("search_history", { query: "error: TS2554", limit: 5 });
        expect(r.isError, r.text).toBe(false);
        const hits = r.data["hits"] as Array<{ event_id: string; event_type: string }>;
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((h) => h.event_type === "error")).toBe(true);
        const e = await mcp.call("get_event", { event_id: hits[0]!.event_id });
        expect(e.isError, e.text).toBe(false);
        expect(pg.psql(`SELECT count(*) FROM session_events WHERE event_id = '${hits[0]!.event_id}'`)).toBe("1");
      } finally {
        await mcp.close();
      }
    }, 120_000);

    it("usage: the team index answers the usage report as a local index of the same transcripts does", () => {
      const local = join(dir, "local.db");
      expect(cairn(["index", "--db", local, join(dir, "t")], { env: env() }).code).toBe(0);
      const report = (db: string, by: string) => {
        const r = cairn(["usage", "--no-index", "--json", "--timezone", "UTC", "--by", by, "--db", db], { env: env() });
        expect(r.code, r.stderr).toBe(0);
        const a = JSON.parse(r.stdout) as {
          totals: unknown;
          groups: Array<{ key: string; total: number; cost: number }>;
        };
        return { totals: a.totals, groups: a.groups.map((g) => [g.key, g.total, g.cost.toFixed(6)]) };
      };
      for (const by of ["day", "session", "model"]) {
        const team = report(pg.url, by);
        expect(team.groups.length, by).toBeGreaterThan(2);
        expect(team).toEqual(report(local, by));
      }
    }, 120_000);

    it("serve: the sessions and search API answer from PostgreSQL with the loopback token", async () => {
      const child = spawn(
        process.execPath,
        [CLI, "serve", "--driver", "scripted", "--script", "examples/live-demo.json", "--port", "0", "--db", pg.url],
        { cwd: REPO, env: { ...process.env, ...env() } },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        err += d;
      });
      try {
        await vi.waitFor(() => expect(out, err).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\/\?token=/), {
          timeout: 30_000,
        });
        const url = new URL(out.match(/Open (\S+)/)![1]!);
        const get = (path: string, token: string | null = url.searchParams.get("token")) =>
          request(Number(url.port), {
            path,
            headers: { Host: url.host, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          });
        const sessions = await get("/api/history/sessions?limit=500");
        expect(sessions.status, sessions.body).toBe(200);
        const listed = JSON.parse(sessions.body) as Array<{ session_id: string }>;
        expect(listed.length).toBe(Number(pg.psql("SELECT count(*) FROM sessions WHERE kind <> 'subagent'")));
        const search = await get("/api/history/search?query=kind%3Aerror");
        expect(search.status, search.body).toBe(200);
        const hits = JSON.parse(search.body).hits as Array<{ event_id: string }>;
        expect(hits.length).toBeGreaterThan(0);
        expect(pg.psql(`SELECT event_type FROM session_events WHERE event_id = '${hits[0]!.event_id}'`)).toBe("error");
        expect((await get("/api/history/sessions", null)).status).toBe(401);
      } finally {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("close", resolve));
      }
    }, 120_000);
  },
  600_000,
);
