/**
 * The `usage` tool end to end: Claude Code's real transcripts indexed into a temp database, the built CLI started
 * as an MCP server, and its answers by day and by session checked against what `cairn usage --json` says of the
 * same index.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { connectCairn, type McpSession, type Obj } from "./client.ts";

const index = tempIndex("cairn-mcp-usage-", [join(realFixturesDir(), "claude")]);
const home = join(index.dir, "home");
mkdirSync(home);
// The same HOME for both: a price file there would change what either prices.
const env = { HOME: home, XDG_DATA_HOME: join(home, ".local/share") };
let mcp: McpSession;

beforeAll(async () => {
  mcp = await connectCairn(index.db, env);
});
afterAll(async () => {
  await mcp?.close();
  index.remove();
});

function cliUsage(args: string[]): Obj {
  const r = cairn(["usage", "--json", "--no-index", "--timezone", "UTC", "--db", index.db, ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Obj;
}

const keys = (data: Obj) => (data["groups"] as Obj[]).map((g) => g["key"]);

describe("the usage tool", () => {
  it("is listed, read-only, saying when to use it", async () => {
    const { tools } = await mcp.client.listTools();
    const usage = tools.find((t) => t.name === "usage");
    expect(usage?.annotations?.readOnlyHint).toBe(true);
    expect(usage?.description).toMatch(/how much did this session cost/);
    expect(usage?.description).toMatch(/which model used the most tokens/);
    expect(usage?.inputSchema.properties?.["by"]).toMatchObject({ default: "day" });
    expect(mcp.client.getInstructions()).toMatch(/usage sums the tokens/);
  });

  it("by day: the totals and the days of `cairn usage --json`", async () => {
    const cli = cliUsage([]);
    const r = await mcp.call("usage", { timezone: "UTC" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data["totals"]).toEqual(cli["totals"]);
    expect((r.data["totals"] as Obj)["calls"]).toBeGreaterThan(0);
    expect(keys(r.data)).toEqual(keys(cli));
    expect(keys(r.data).length).toBeGreaterThan(1);
    for (const [i, g] of (r.data["groups"] as Obj[]).entries()) {
      const c = (cli["groups"] as Obj[])[i]!;
      expect(g["total"]).toBe(c["total"]);
      expect(g["cost"]).toBe(c["cost"]);
      expect(r.text).toContain(`${g["key"]} | ${Number(g["total"]).toLocaleString("en-US")} |`);
    }
    const t = r.data["totals"] as Obj;
    expect(r.text).toContain(`${Number(t["total"]).toLocaleString("en-US")} tokens, $${Number(t["cost"]).toFixed(2)}`);
    expect(r.data["more"]).toBe(0);
  });

  it("by session: the same totals, each session's row as the CLI counts it, one session alone", async () => {
    const cli = cliUsage(["--by", "session"]);
    const r = await mcp.call("usage", { by: "session", timezone: "UTC" });
    expect(r.data["totals"]).toEqual(cli["totals"]);
    const groups = r.data["groups"] as Obj[];
    expect(groups.map((g) => [g["key"], g["total"], g["cost"]])).toEqual(
      (cli["groups"] as Obj[]).map((g) => [g["key"], g["total"], g["cost"]]),
    );
    for (const g of groups) {
      expect((g["session"] as Obj)["session_id"]).toBe(g["key"]);
      expect(r.text).toContain(`session ${g["key"]} · claude`);
    }
    const top = groups[0]!;
    const one = await mcp.call("usage", { by: "session", session: String(top["key"]).slice(0, 8) });
    expect(keys(one.data)).toEqual([top["key"]]);
    expect((one.data["totals"] as Obj)["total"]).toBe(top["total"]);
  });

  it("keeps the latest days under a limit, and says how many it left out", async () => {
    const all = await mcp.call("usage", { timezone: "UTC" });
    const r = await mcp.call("usage", { timezone: "UTC", limit: 1 });
    expect(keys(r.data)).toEqual(keys(all.data).slice(-1));
    expect(r.data["more"]).toBe(keys(all.data).length - 1);
    expect(r.data["totals"]).toEqual(all.data["totals"]);
    expect(r.text).toMatch(/… \d+ more earlier rows \(limit=1\)/);
  });

  it("refuses a grouping it does not know and a session that is not there, saying what to give", async () => {
    const bad = await mcp.call("usage", { by: "fortnight" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/by: expected one of day, week, month, block, session, project, agent, model/);
    const zone = await mcp.call("usage", { timezone: "Mars/Olympus" });
    expect(zone.isError).toBe(true);
    expect(zone.text).toMatch(/unknown time zone 'Mars\/Olympus'/);
    const none = await mcp.call("usage", { by: "session", session: "ffffffff-none" });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/no session matches 'ffffffff-none'/);
  });
});
