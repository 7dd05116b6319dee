/**
 * One application layer under every surface: the same five questions — a search, an event, a timeline window, a
 * brief and the threads — asked through the built CLI (`--json`), the MCP server over real stdio and the
 * library's public entry (`src/index.ts`) give the same data. The CLI prints the layer's answers whole; MCP
 * bounds its text fields for an agent's context, so it is compared field by field on what it keeps.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCairn,
  createStaticEmbedder,
  indexPaths,
  openStore,
  type ReadCairn,
  refreshVectors,
} from "../../src/index.ts";
import { cairn } from "../helpers/cli.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { connectCairn, type McpSession, type Obj } from "../mcp/client.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-same-"));
const db = join(dir, "cairn.db");
let lib: ReadCairn;
let mcp: McpSession;

beforeAll(async () => {
  const store = openStore(db);
  try {
    indexPaths({ store, paths: [realFixturesDir()], parallel: false });
    await refreshVectors(store, createStaticEmbedder());
  } finally {
    store.close();
  }
  lib = createCairn({ db, env: { HOME: dir } });
  mcp = await connectCairn(db, { XDG_DATA_HOME: dir });
});

afterAll(async () => {
  lib?.close();
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI's JSON answer (exit 0 required). */
function cli(args: string[]): Obj {
  const r = cairn([...args, "--db", db, "--json"], { env: { HOME: dir } });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Obj;
}
/** What the library returns, as the JSON a surface would print. */
const plain = <T>(v: T): Obj => JSON.parse(JSON.stringify(v)) as Obj;
const ids = (list: unknown, key = "event_id") => (list as Obj[]).map((x) => x[key]);

describe("the same five questions through the CLI, MCP and the library", () => {
  let hit: Obj;

  it("a search: the same hits, in the same order, with the same evidence chains", async () => {
    const query = "error: TS2554";
    const fromLib = plain(await lib.search({ query, limit: 5 }));
    const fromCli = cli(["search", query, "--limit", "5"]);
    const fromMcp = (await mcp.call("search_history", { query, limit: 5 })).data;
    expect(fromCli).toEqual(fromLib);
    expect(fromLib["mode"]).toBe("hybrid");
    expect(fromMcp["mode"]).toBe(fromLib["mode"]);
    const hits = fromLib["hits"] as Obj[];
    expect(hits).toHaveLength(5);
    expect(ids(fromMcp["hits"])).toEqual(ids(hits));
    for (const [i, h] of (fromMcp["hits"] as Obj[]).entries()) {
      const whole = hits[i]!;
      for (const k of ["session_id", "provider", "project", "timestamp", "event_type", "status", "why", "source_file"])
        expect(h[k], k).toEqual(whole[k]);
      expect(h["snippet"]).toBe(whole["snippet"]);
      expect(ids(h["evidence"])).toEqual(ids(whole["evidence"]));
    }
    hit = hits[0]!;
  });

  it("an event: the same event and the same edges, each resolved to what it points at", async () => {
    // The tool result behind the error: its call, its error, its signature and the next event.
    const id = String((hit["evidence"] as Obj[])[0]!["event_id"]);
    const fromLib = plain(lib.event(id.slice(0, 10)));
    const fromCli = cli(["show", `[e:${id}]`]);
    const fromMcp = (await mcp.call("get_event", { event_id: id })).data;
    expect(fromCli).toEqual(fromLib);
    const event = fromLib["event"] as Obj;
    expect(event["event_id"]).toBe(id);
    expect(fromMcp["event"]).toEqual(
      Object.fromEntries(Object.keys(fromMcp["event"] as Obj).map((k) => [k, event[k]])),
    );
    expect(fromMcp["text"]).toBe(event["text"]);
    const edges = fromLib["edges"] as { out: Obj[]; in: Obj[] };
    const mcpEdges = fromMcp["edges"] as { out: Obj[]; in: Obj[] };
    expect(edges.out.length + edges.in.length).toBeGreaterThan(1);
    const strip = (e: Obj) => ({ ...e, meta: undefined });
    expect(mcpEdges.out.map(strip)).toEqual(edges.out.map(strip));
    expect(mcpEdges.in.map(strip)).toEqual(edges.in.map(strip));
    expect(edges.out.some((e) => e["other_kind"] === "entity" && e["other_type"] === "error_signature")).toBe(true);
    expect(edges.in.some((e) => e["other_kind"] === "event" && e["other_type"] === "error")).toBe(true);
  });

  it("a timeline window: the same rows around the event, the same window and paging", async () => {
    const id = String(hit["event_id"]);
    const fromLib = plain(lib.timeline({ around: id, limit: 12 }));
    const fromCli = cli(["timeline", "--around", id, "--limit", "12"]);
    const fromMcp = (await mcp.call("session_timeline", { around: id, limit: 12 })).data;
    expect(fromCli).toEqual(fromLib);
    const rows = fromLib["rows"] as Obj[];
    expect(rows).toHaveLength(12);
    expect(ids(rows)).toContain(id);
    expect(ids(fromMcp["rows"])).toEqual(ids(rows));
    for (const [i, r] of (fromMcp["rows"] as Obj[]).entries())
      for (const k of ["ordinal", "timestamp", "event_type", "mark", "depth", "status", "branch_from"])
        expect(r[k], k).toEqual(rows[i]![k]);
    for (const k of ["window", "earlier", "later"]) expect(fromMcp[k], k).toEqual(fromLib[k]);
    expect((fromMcp["session"] as Obj)["session_id"]).toBe((fromLib["session"] as Obj)["session_id"]);
  });

  it("a brief: the same cited brief, in the one JSON shape", async () => {
    const session = "019b04ae";
    const fromLib = plain(await lib.brief({ session, budget_tokens: 1_000 }));
    const fromCli = cli(["resume", session, "--budget", "1000"]);
    const fromMcp = (await mcp.call("resume_brief", { session, budget_tokens: 1_000 })).data;
    expect(fromCli).toEqual(fromLib);
    expect(fromLib["fallback"]).toEqual([]);
    expect(String(fromLib["text"])).toMatch(/^# Resume brief/);
    for (const k of [
      "session_id",
      "at",
      "step",
      "budget_tokens",
      "tokens",
      "original_tokens",
      "ratio",
      "text",
      "source",
    ])
      expect(fromMcp[k], k).toEqual(fromLib[k]);
    expect(fromMcp["validation"]).toEqual(fromLib["validation"]);
    const citations = fromLib["citations"] as Obj[];
    expect(fromMcp["citations_total"]).toBe(citations.length);
    expect(fromMcp["citations"]).toEqual(citations.slice(0, (fromMcp["citations"] as Obj[]).length));
  });

  it("threads: the same threads, labels and sessions", async () => {
    const fromLib = plain(await lib.threads({ include_single: true, limit: 10 }));
    const fromCli = cli(["threads", "--all", "--limit", "10"]);
    const fromMcp = (await mcp.call("list_threads", { include_single: true, limit: 10 })).data;
    expect(fromCli).toEqual(fromLib);
    const threads = fromLib["threads"] as Obj[];
    expect(threads.length).toBeGreaterThan(3);
    expect(fromMcp["total"]).toBe(fromLib["total"]);
    const shown = fromMcp["threads"] as Obj[];
    expect(shown.length).toBeGreaterThan(0);
    for (const [i, t] of shown.entries()) {
      const whole = threads[i]!;
      for (const k of ["thread_id", "label", "started_at", "updated_at", "providers", "projects"])
        expect(t[k], k).toEqual(whole[k]);
      expect(ids(t["sessions"], "session_id")).toEqual(ids(whole["sessions"], "session_id").slice(0, 12));
      expect(ids(t["shared"], "entity_id")).toEqual(ids(whole["shared"], "entity_id").slice(0, 8));
    }
  });

  it("a query nothing in the history is about: no hits through each, the CLI exiting 1 as grep does", async () => {
    for (const query of ["zzzznotthere", "giraffe saxophone"]) {
      expect((await lib.search({ query })).hits).toEqual([]);
      const r = cairn(["search", query, "--db", db, "--json"], { env: { HOME: dir } });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)["hits"]).toEqual([]);
      const fromMcp = await mcp.call("search_history", { query });
      expect(fromMcp.data["hits"]).toEqual([]);
      expect(fromMcp.text).toMatch(/^no matches for /);
    }
  });

  it("explain: the ranks behind each hit through each; without it, only how it matched", async () => {
    const query = "error: TS2554";
    const explained = plain(await lib.search({ query, limit: 5, explain: true }));
    expect(cli(["search", query, "--limit", "5", "--explain"])).toEqual(explained);
    const fromMcp = (await mcp.call("search_history", { query, limit: 5, explain: true })).data;
    const whys = (a: Obj) => (a["hits"] as Obj[]).map((h) => h["why"]);
    expect(whys(fromMcp)).toEqual(whys(explained));
    expect(whys(explained).every((w) => /#\d/.test(String(w)))).toBe(true);
    const asked = (await mcp.call("search_history", { query, limit: 5 })).data;
    expect(whys(asked).every((w) => /^(some words|words|meaning)( and meaning)?$/.test(String(w)))).toBe(true);
  });
});
